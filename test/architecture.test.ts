import { readdirSync } from 'node:fs';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/**
 * The layering of src/ (.dependency-cruiser.cjs; docs/decisions/layers-and-dependency-rule.md): no import cycle, nothing imports a layer above it, no adapter imports another, no domain
 * feature imports one above it or beside it (docs/decisions/domain-floors.md), and the web console's browser modules import only each other (docs/decisions/console-type-checked.md).
 * `npx depcruise src` prints the same report.
 */
async function cruiseSource(): Promise<{ result: ICruiseResult; why: Map<string, string> }> {
  const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
  const { output } = await cruise(['src'], options, undefined, { tsConfig: extractTSConfig('tsconfig.json') });
  const why = new Map((options.ruleSet?.forbidden ?? []).map((rule) => [rule.name ?? '', rule.comment ?? '']));
  return { result: output as ICruiseResult, why };
}

// the TypeScript of the service and the JavaScript of the browser (the console's modules, the pages' scripts)
const sourceFiles = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => /[.][jt]s$/.test(file))
  .map((file) => `src/${file.replaceAll('\\', '/')}`)
  .sort();

describe('the dependency rule', () => {
  it('places every feature of src/domain/ on a floor (a new folder must say where it stands)', async () => {
    const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
    const floorPaths = (options.ruleSet?.forbidden ?? [])
      .filter((rule) => /^domain-(floor|ground)/.test(rule.name ?? ''))
      .flatMap((rule) => [(rule as { from?: { path?: string } }).from, (rule as { to?: { path?: string } }).to].map((side) => String(side?.path ?? '')));
    const features = readdirSync('src/domain', { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const placed = (feature: string) => feature === 'shared' || floorPaths.some((path) => new RegExp(path).test(`src/domain/${feature}/x.ts`));
    expect(features.filter((feature) => !placed(feature))).toEqual([]);
  });

  it('src/ has no cycle, no import running up a layer, no adapter importing another and a console importing only itself', async () => {
    const { result, why } = await cruiseSource();
    // on failure each violation names the import, the rule it breaks and why the rule exists
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to} (${why.get(v.rule.name)})`)).toEqual([]);
    // every source file was read, the console's JavaScript too (a parser that read none would find no violation either)
    expect(sourceFiles.filter((file) => !result.modules.some((m) => m.source === file))).toEqual([]);
  });
});
