import { readdirSync } from 'node:fs';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/**
 * The layering of src/ (.dependency-cruiser.cjs; docs/decisions.md, "Layers and the dependency
 * rule"): no import cycle, nothing imports a layer above it, no adapter imports another.
 * `npx depcruise src` prints the same report.
 */
async function cruiseSource(): Promise<IReporterOutput> {
  const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
  return cruise(['src'], { ...options, outputType: 'err-long' }, undefined, { tsConfig: extractTSConfig('tsconfig.json') });
}

const sourceFiles = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).length;

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

  it('src/ has no cycle, no import running up a layer and no adapter importing another', async () => {
    const { output, exitCode } = await cruiseSource();
    // on failure the report names each import, the rule it breaks and why the rule exists
    expect({ exitCode, report: String(output) }).toEqual({ exitCode: 0, report: expect.stringContaining('no dependency violations found') });
    // every source file was read (a parser that read none would find no violation either)
    const cruised = Number(/\((\d+) modules/.exec(String(output))?.[1]);
    expect(cruised).toBeGreaterThanOrEqual(sourceFiles);
  });
});
