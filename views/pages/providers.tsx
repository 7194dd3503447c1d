// The provider list: a card per provider (views/fragments/provider-row.tsx).

import { Html } from "@elysiajs/html";
import type { ProviderStats } from "../../src/modules/metrics/service";
import type { LastVerification, ProviderView } from "../../src/modules/providers/service";
import type { Flash } from "../components";
import { type DomainProblem, ProviderRow } from "../fragments/provider-row";
import { Layout, PageHeader } from "../layout";

export interface ProvidersPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  providers: ProviderView[];
  stats: ProviderStats[];
  verifications: Map<number, LastVerification>;
  /** Each provider's domains whose newest update failed at the service, by provider id. */
  problems?: Map<number, DomainProblem[]>;
}

export function ProvidersPage({ user, flash, now, providers, stats, verifications, problems }: ProvidersPageProps) {
  return (
    <Layout title="Providers" user={user} section="providers" flash={flash}>
      <PageHeader title="Providers">
        <a class="button button-primary" href="/providers/new">
          Add provider
        </a>
      </PageHeader>
      <p class="lead muted">The DNS services your records live at, and the credentials ddnsd uses to change them.</p>
      {providers.length === 0 ? (
        <section class="card">
          <p class="empty">
            No providers yet. <a href="/providers/new">Add the account of your DNS service</a> to get started.
          </p>
        </section>
      ) : (
        <ul class="provider-list" aria-label="Providers">
          {providers.map((provider) => (
            <ProviderRow
              provider={provider}
              stats={stats.find((s) => s.provider_id === provider.id)}
              verification={verifications.get(provider.id)}
              problems={problems?.get(provider.id)}
              now={now}
            />
          ))}
        </ul>
      )}
    </Layout>
  );
}
