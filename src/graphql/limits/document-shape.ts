import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** What a selection set amounts to once every fragment spread in it is replaced by the fragment. */
interface Expansion {
  /** Selections (fields, spreads, inline fragments) a walk that follows every spread visits. */
  selections: number;
  /** Deepest field nesting, introspection fields not counted. */
  depth: number;
}

const NOTHING: Expansion = { selections: 0, depth: 0 };

/**
 * The expanded size and depth of a document's definitions, in time linear in the document: each
 * fragment is expanded once and remembered by name, and a spread adds the fragment's figures
 * wherever it stands. A fragment spread twice in a row doubles the size without walking it twice,
 * so `fragment F1 {...F2 ...F2}` … 40 levels deep costs 40 steps, not 2^40 (CONTRACT §18).
 * Sizes may exceed 2^53 and lose precision; they are only compared with a limit.
 *
 * A fragment on a cycle counts as empty where it comes back (graphql's NoFragmentCyclesRule
 * refuses the document anyway), and an unknown fragment as empty (KnownFragmentNamesRule).
 */
export class DocumentShape {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly expanded = new Map<string, Expansion>();

  private constructor(readonly document: DocumentNode) {
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
  }

  private static readonly shapes = new WeakMap<DocumentNode, DocumentShape>();

  /** One shape per parsed document, shared by the rules that read it in one validation. */
  static of(document: DocumentNode): DocumentShape {
    let shape = DocumentShape.shapes.get(document);
    if (!shape) DocumentShape.shapes.set(document, (shape = new DocumentShape(document)));
    return shape;
  }

  /**
   * Selections of every operation expanded, plus those of every fragment no operation spreads:
   * what graphql's own rules (which walk each fragment definition as well as each operation) and
   * ours have to look at, a spread fragment's definition being no larger than the operation that
   * spreads it.
   */
  totalSelections(): number {
    let total = 0;
    for (const definition of this.document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) total += this.selectionSet(definition.selectionSet).selections;
    }
    for (const [name, fragment] of this.fragments) {
      if (!this.expanded.has(name)) total += this.selectionSet(fragment.selectionSet).selections;
    }
    return total;
  }

  depth(selectionSet: SelectionSetNode): number {
    return this.selectionSet(selectionSet).depth;
  }

  private selectionSet(set: SelectionSetNode): Expansion {
    let selections = 0;
    let depth = 0;
    for (const selection of set.selections) {
      selections += 1;
      let inner: Expansion;
      if (selection.kind === Kind.FIELD) {
        inner = selection.selectionSet ? this.selectionSet(selection.selectionSet) : NOTHING;
        // introspection never reaches the database; the standard introspection query is 15 deep
        if (!selection.name.value.startsWith('__')) depth = Math.max(depth, 1 + inner.depth);
      } else {
        inner = selection.kind === Kind.INLINE_FRAGMENT ? this.selectionSet(selection.selectionSet) : this.fragment(selection.name.value);
        depth = Math.max(depth, inner.depth);
      }
      selections += inner.selections;
    }
    return { selections, depth };
  }

  private fragment(name: string): Expansion {
    const known = this.expanded.get(name);
    if (known) return known;
    const fragment = this.fragments.get(name);
    if (!fragment) return NOTHING;
    this.expanded.set(name, NOTHING); // on a cycle, the way back counts as empty
    const expansion = this.selectionSet(fragment.selectionSet);
    this.expanded.set(name, expansion);
    return expansion;
  }
}
