// The provider list: a card per provider (views/fragments/provider-row.tsx).

import { Html } from "@elysiajs/html";
import type { ProviderStats } from "../../src/modules/metrics/service";
import type { LastVerification, ProviderView } from "../../src/modules/providers/service";
import type { Flash } from "../components";
import { type DomainProblem, ProviderRow } from "../fragments/provider-row";
import { msg } from "../i18n";
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
  const words = msg().providers;
  return (
    <Layout title={words.title} user={user} section="providers" flash={flash}>
      <PageHeader title={words.title}>
        <a class="button button-primary" href="/providers/new">
          {words.add}
        </a>
      </PageHeader>
      <p class="lead muted">{words.lead}</p>
      {providers.length === 0 ? (
        <section class="card">
          <p class="empty">{words.empty((text) => `<a href="/providers/new">${text}</a>`)}</p>
        </section>
      ) : (
        <ul class="provider-list" aria-label={words.listLabel}>
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
