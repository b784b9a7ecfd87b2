import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

interface Occurrence {
  field: FieldNode;
  /** Under @skip/@include: on the field itself, or on a fragment that selects it. */
  conditional: boolean;
}

/**
 * Whether some response key is selected more than once in one (merged) selection set with one of
 * its occurrences under @skip/@include — where graphql-jit goes wrong: it keeps the fields of a
 * skipped occurrence's fragments, and orders the key where a skipped occurrence stood (found by
 * the SQL plans' differential test). Fragments are followed whatever their type condition, which
 * can only say yes too often.
 */
export function mergesConditionalFields(document: DocumentNode): boolean {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION && conditionalMerge([definition.selectionSet], fragments));
}

function conditionalMerge(sets: readonly SelectionSetNode[], fragments: Map<string, FragmentDefinitionNode>): boolean {
  const byKey = new Map<string, Occurrence[]>();
  const visited = new Set<string>();
  for (const set of sets) collect(set, false, fragments, byKey, visited);
  for (const occurrences of byKey.values()) {
    if (occurrences.length > 1 && occurrences.some((occurrence) => occurrence.conditional)) return true;
    const children = occurrences.flatMap((occurrence) => (occurrence.field.selectionSet ? [occurrence.field.selectionSet] : []));
    if (children.length && conditionalMerge(children, fragments)) return true;
  }
  return false;
}

/**
 * A fragment is collected once per merged set and flag (`visited`): spreading it again adds the
 * same occurrences, which changes no answer, and without it a fragment spreading the next one
 * twice, n levels deep, would be collected 2^n times.
 */
function collect(set: SelectionSetNode, conditional: boolean, fragments: Map<string, FragmentDefinitionNode>, byKey: Map<string, Occurrence[]>, visited: Set<string>): void {
  for (const selection of set.selections) {
    const here = conditional || isConditional(selection);
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      let occurrences = byKey.get(key);
      if (!occurrences) byKey.set(key, (occurrences = []));
      occurrences.push({ field: selection, conditional: here });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collect(selection.selectionSet, here, fragments, byKey, visited);
    } else {
      const fragment = fragments.get(selection.name.value);
      const visit = `${here}:${selection.name.value}`;
      if (!fragment || visited.has(visit)) continue;
      visited.add(visit);
      collect(fragment.selectionSet, here, fragments, byKey, visited);
    }
  }
}

const isConditional = (node: { directives?: readonly { name: { value: string } }[] }): boolean =>
  node.directives?.some((directive) => directive.name.value === 'skip' || directive.name.value === 'include') ?? false;
