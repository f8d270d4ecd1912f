/** Reads the scenario's configuration (JSON) from `IDP_SCENARIO_CONFIG`, through `Deno.env` or `process.env`. */
export function readConfig() {
  const raw = globalThis.Deno ? globalThis.Deno.env.get('IDP_SCENARIO_CONFIG') : globalThis.process?.env.IDP_SCENARIO_CONFIG;
  if (!raw) throw new Error('IDP_SCENARIO_CONFIG is not set: run the scenario through test/runtimes/run.mjs');
  return JSON.parse(raw);
}
