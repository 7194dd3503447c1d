// The providers table: the DNS service accounts (their type, sealed credentials, options, and a
// pause their service asked for).

import { eq } from "drizzle-orm";
import { providers } from "../db/schema";
import type { Handle } from "./handle";

export interface ProviderQueries {
  /** A provider's name, or undefined when it is gone. */
  nameOf(id: number): string | undefined;
}

export function providerQueries(db: Handle): ProviderQueries {
  return {
    nameOf(id) {
      return db.select({ name: providers.name }).from(providers).where(eq(providers.id, id)).get()?.name;
    },
  };
}
