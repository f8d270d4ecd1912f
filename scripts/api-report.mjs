// The public surface of every entry point, as API Extractor reports it: one
// `api/<entry>.api.md` per subpath, committed so that an accidental export shows
// up in review. `npm run api` refreshes the reports (after `npm run build`);
// `npm run api -- --check` (CI) fails when the built declarations differ from them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = join(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const entries = Object.entries(pkg.exports)
  .filter(([subpath]) => subpath !== './package.json')
  .map(([subpath, conditions]) => ({
    name: subpath === '.' ? 'idplatform' : `idplatform-${subpath.slice(2).replaceAll('/', '-')}`,
    types: join(root, conditions.import.types),
  }));

let failed = 0;
for (const { name, types } of entries) {
  if (!existsSync(types)) throw new Error(`${types} is missing: run npm run build first`);
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: types,
      compiler: { tsconfigFilePath: join(root, 'tsconfig.json'), skipLibCheck: true },
      apiReport: { enabled: true, reportFileName: `${name}.api.md`, reportFolder: join(root, 'api'), reportTempFolder: join(root, 'test-results/api') },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        extractorMessageReporting: {
          default: { logLevel: 'none' },
          // Types that public signatures use without exporting them are listed in the report itself.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
        compilerMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(root, 'api', `${name}.json`),
    packageJsonFullPath: join(root, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: !check,
    messageCallback: (message) => {
      message.handled = true;
    },
  });
  const changed = result.apiReportChanged;
  console.log(`${name}: ${changed ? (check ? 'CHANGED (run npm run api and commit api/)' : 'updated') : 'unchanged'}`);
  if (check && changed) failed++;
}
if (failed) {
  console.error(`${failed} problem(s) in the API reports`);
  process.exit(1);
}
