// Every service adapter (test/services/adapters/<type>.ts, each exporting `adapter`), in the
// registry's order. A new service's adapter is picked up by being there: no list to edit.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { PROVIDER_TYPES } from "../../src/dns/registry";
import type { ServiceAdapter } from "./adapter";

const DIR = join(import.meta.dir, "adapters");

const loaded: ServiceAdapter[] = [];
for (const file of readdirSync(DIR).filter((name) => name.endsWith(".ts"))) {
  const module = (await import(join(DIR, file))) as { adapter?: ServiceAdapter };
  if (!module.adapter) throw new Error(`test/services/adapters/${file} exports no adapter`);
  if (`${module.adapter.type}.ts` !== file)
    throw new Error(`test/services/adapters/${file} holds the adapter of "${module.adapter.type}"`);
  loaded.push(module.adapter);
}

const order = (adapter: ServiceAdapter) => PROVIDER_TYPES.indexOf(adapter.type as never);

/** Every adapter, in the order of `SERVICES`. */
export const ADAPTERS: readonly ServiceAdapter[] = loaded.sort((a, b) => order(a) - order(b));
