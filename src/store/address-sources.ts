// The address_sources table: where each family's public address comes from when the admin pages
// or the API chose it (the echo services with their URLs, or an interface); no row, the environment's.

import { eq } from "drizzle-orm";
import { addressSources } from "../db/schema";
import type { Handle } from "./handle";
import type { AddressSourceRow } from "./rows";

/** What is stored for a family: the echo services (`urls`) or an interface (`interfaceName`). */
export type AddressSourceChoice = Omit<AddressSourceRow, "family">;

export interface AddressSourceQueries {
  /** The family's stored choice, or undefined when the environment decides. */
  find(family: 4 | 6): AddressSourceRow | undefined;
  /** Stores the family's choice, replacing any before it. */
  choose(family: 4 | 6, choice: AddressSourceChoice): void;
  /** Forgets the family's choice: the environment decides again. */
  reset(family: 4 | 6): void;
}

export function addressSourceQueries(db: Handle): AddressSourceQueries {
  return {
    find(family) {
      return db.select().from(addressSources).where(eq(addressSources.family, family)).get();
    },
    choose(family, choice) {
      db.insert(addressSources)
        .values({ family, ...choice })
        .onConflictDoUpdate({ target: addressSources.family, set: choice })
        .run();
    },
    reset(family) {
      db.delete(addressSources).where(eq(addressSources.family, family)).run();
    },
  };
}
