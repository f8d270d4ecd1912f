/**
 * The scenario as a CommonJS program (Node): the package loaded with `require`,
 * so its `.cjs` build is what runs; the scenario itself is the same ES module.
 */
const sdk = require('idplatform');

(async () => {
  const { runScenario } = await import('../scenario.mjs');
  const { readConfig } = await import('./config.mjs');
  const { failed } = await runScenario(sdk, readConfig(), (line) => console.log(line));
  if (failed > 0) process.exitCode = 1;
})();
