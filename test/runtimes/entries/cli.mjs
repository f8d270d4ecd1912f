/**
 * The scenario as a command-line program (Node, Bun, Deno): the package imported by
 * its name, as its users import it; the configuration from `IDP_SCENARIO_CONFIG`
 * (JSON, see `ScenarioConfig`). Exits 1 when a check fails.
 */
import * as sdk from 'idplatform';
import { runScenario } from '../scenario.mjs';
import { readConfig } from './config.mjs';

const { failed } = await runScenario(sdk, readConfig(), (line) => console.log(line));
if (failed > 0) globalThis.process.exitCode = 1;
