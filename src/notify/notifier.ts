// Turns the update path's events into messages (docs/api.md, notifications) and delivers them off the update
// path: each enabled notification that asked for the event gets it, a failed delivery is tried
// again after 1 s, 5 s and 25 s, and the notification keeps `last_sent_at` / `last_error`. Each
// message is at most 2,000 characters (util/message.ts), whatever it quotes.
//
// Streaks: `update_failed` goes out for the first failure after a success (or for a record never
// written), `update_recovered` for the first success after failures, both read from the domain's
// stored status before the attempt, so a restart does not repeat them. `detection_failed` is per
// address family, once until a detection of that family succeeds again (kept in memory: after a
// restart an ongoing outage is reported once more).
//
// Heartbeat channels (Healthchecks, Uptime Kuma) take no events: after each scheduled pass that
// checked records they check in — up when every record was checked or written, down when one failed
// (the provider refused, or the address could not be detected). A monitor then raises the alarm both
// when ddnsd stops checking and when checks fail. Passes come as often as records fall due, so an
// "up" goes out at most once a minute per notification; a change between up and down always goes.

import type { Detection } from "../ip/detect";
import type { Logger } from "../log";
import type { IpFamily } from "../net/address";
import type { FetchLike } from "../net/outbound";
import { scrubber } from "../security/scrub";
import type { Store } from "../store";
import type { NotificationEvent, NotificationRow } from "../store/rows";
import type { EventSink, NotServed, RecordedUpdate, StalePush } from "../updater/events";
import type { UpdateOutcome } from "../updater/outcome";
import { localeOf } from "../util/locale";
import { bounded } from "../util/message";
import type { Heartbeat, NotificationMessage, SendDeps } from "./channel";
import { openOptions } from "./options";
import { channelOf, findChannel } from "./registry";
import { type NotificationTexts, notificationTexts } from "./texts";

type MessageFacts = Omit<NotificationMessage, "event" | "title" | "timestamp">;

/** The events an update's outcome raises. */
type UpdateEvent = Exclude<NotificationEvent, "detection_failed" | "not_served" | "push_stale">;

/** The sentence a person reads on a phone, for an update's event. */
function describeUpdate(
  words: NotificationTexts,
  event: UpdateEvent,
  update: RecordedUpdate,
  providerName: string,
): string {
  const { hostname, recordType, ip, previousIp, message } = update.outcome;
  switch (event) {
    case "ip_changed":
      return words.ipChanged(hostname, String(ip), previousIp, update.trigger === "repair");
    case "update_failed":
      return words.updateFailed(hostname, recordType, providerName, message);
    case "update_recovered":
      return words.updateRecovered(hostname, recordType, providerName, String(ip));
  }
}

/** What the notifier needs: the notifications and provider names, and how to reach a channel. */
export interface NotifierDeps {
  /** The notifications, the providers' names, and the users' languages (notifications speak the admin's). */
  store: Pick<Store, "notifications" | "providers" | "users">;
  log: Logger;
  /** The outbound fetch (through the proxy, when one is set). */
  fetch: FetchLike;
  /** Read at each delivery, as the settings below, so a value set anew is the one used. */
  keys: { readonly encryptionKey: string };
  settings: { readonly httpTimeoutMs: number; readonly telegramApiUrl: string };
}

export class Notifier implements EventSink {
  /** Waits before the 2nd, 3rd and 4th attempt of a delivery; tests shorten them. */
  retryDelaysMs = [1_000, 5_000, 25_000];
  private readonly detectionFailing = new Set<IpFamily>();
  private readonly deliveries = new Set<Promise<void>>();
  /** Per heartbeat notification: the last check-in sent, to space out repeated "up"s. */
  private readonly lastBeat = new Map<number, { up: boolean; at: number }>();
  /** The shortest time between two equal heartbeats of one notification. */
  heartbeatSpacingMs = 60_000;

  constructor(private readonly deps: NotifierDeps) {}

  detected(family: IpFamily, detection: Detection): void {
    if (detection.ok) {
      this.detectionFailing.delete(family);
      return;
    }
    if (this.detectionFailing.has(family)) return;
    this.detectionFailing.add(family);
    this.emit("detection_failed", {
      domain: null,
      record_type: family === 4 ? "A" : "AAAA",
      provider: null,
      ip: null,
      previous_ip: null,
      message: this.words().detectionFailed(family, detection.error),
    });
  }

  recorded(update: RecordedUpdate): void {
    const { before, outcome } = update;
    const events: UpdateEvent[] = [];
    if (outcome.result === "updated") {
      if (outcome.changed) events.push("ip_changed");
      if (before.lastUpdateStatus === "FAILED") events.push("update_recovered");
    } else if (outcome.failure === "provider" && before.lastUpdateStatus !== "FAILED") {
      events.push("update_failed");
    }
    if (events.length === 0) return;
    const words = this.words();
    const provider = this.deps.store.providers.nameOf(before.providerId) ?? words.itsProvider;
    for (const event of events) {
      this.emit(event, {
        domain: outcome.hostname,
        record_type: outcome.recordType,
        provider,
        ip: outcome.ip,
        previous_ip: outcome.previousIp,
        message: describeUpdate(words, event, update, provider),
      });
    }
  }

  /** Once per record until it is served again (the tracker keeps that streak). */
  notServed(report: NotServed): void {
    this.emit("not_served", {
      domain: report.hostname,
      record_type: report.recordType,
      provider: this.deps.store.providers.nameOf(report.providerId) ?? null,
      ip: report.ip,
      previous_ip: null,
      message: this.words().notServed(report.hostname, report.recordType, report.message),
    });
  }

  pushStale(domain: StalePush): void {
    const words = this.words();
    const since =
      domain.pushedAt === null ? words.neverPushed : words.lastPush(new Date(domain.pushedAt).toISOString());
    this.emit("push_stale", {
      domain: domain.domainName,
      record_type: domain.recordType,
      provider: null,
      ip: null,
      previous_ip: null,
      message: words.pushStale(domain.domainName, domain.recordType, since),
    });
  }

  passed(outcomes: readonly UpdateOutcome[]): void {
    if (outcomes.length === 0) return;
    const beat = heartbeatOf(this.words(), outcomes);
    const now = Date.now();
    const rows = this.deps.store.notifications.enabled();
    for (const row of rows) {
      if (findChannel(row.type)?.kind !== "heartbeat") continue;
      const last = this.lastBeat.get(row.id);
      if (last !== undefined && last.up === beat.up && now - last.at < this.heartbeatSpacingMs) continue;
      this.lastBeat.set(row.id, { up: beat.up, at: now });
      this.track(this.deliver(row, beat));
    }
  }

  /** Resolves once every delivery under way (retries included) has finished. */
  async idle(): Promise<void> {
    while (this.deliveries.size > 0) await Promise.allSettled([...this.deliveries]);
  }

  /** Sends the test message through one notification, once; null when it arrived, else why not. */
  async sendTest(row: NotificationRow): Promise<string | null> {
    const message = this.message("test", {
      domain: null,
      record_type: null,
      provider: null,
      ip: null,
      previous_ip: null,
      message: this.words().test(row.name),
    });
    return this.attempt(row, message);
  }

  private message(event: NotificationEvent | "test", facts: MessageFacts): NotificationMessage {
    return {
      event,
      title: this.words().titles[event],
      ...facts,
      message: bounded(facts.message),
      timestamp: new Date().toISOString(),
    };
  }

  /** The words of the box's language: the first user's choice on the pages, else English. */
  private words(): NotificationTexts {
    return notificationTexts(localeOf(this.deps.store.users.firstLanguage()) ?? "en");
  }

  /** Queues the event for every enabled notification that wants it; returns at once. */
  private emit(event: NotificationEvent, facts: MessageFacts): void {
    const message = this.message(event, facts);
    const rows = this.deps.store.notifications.enabled();
    for (const row of rows) {
      if (findChannel(row.type)?.kind !== "message" || !row.events.includes(event)) continue;
      this.track(this.deliver(row, message));
    }
  }

  private track(delivery: Promise<void>): void {
    const settled = delivery.catch((error: unknown) => {
      this.deps.log.error("notification delivery failed unexpectedly", { error: String(error) });
    });
    this.deliveries.add(settled);
    void settled.finally(() => this.deliveries.delete(settled));
  }

  private async deliver(row: NotificationRow, content: NotificationMessage | Heartbeat): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const error = await this.attempt(row, content);
      if (error === null) return;
      const delay = this.retryDelaysMs[attempt];
      if (delay === undefined) {
        const event = "event" in content ? content.event : content.up ? "heartbeat_up" : "heartbeat_down";
        this.deps.log.warn("notification not delivered", { notification_id: row.id, event, reason: error });
        return;
      }
      await new Promise((wake) => setTimeout(wake, delay).unref());
    }
  }

  /** One try; the outcome is stored on the notification. Secret values never appear in the reason. */
  private async attempt(row: NotificationRow, content: NotificationMessage | Heartbeat): Promise<string | null> {
    let options: Record<string, unknown>;
    let error: string | null;
    try {
      options = openOptions(row, this.deps.keys.encryptionKey);
      const scrub = scrubber(secretOptionValues(options, row));
      const send: SendDeps = {
        fetch: this.deps.fetch,
        timeoutMs: this.deps.settings.httpTimeoutMs,
        telegramApiUrl: this.deps.settings.telegramApiUrl,
        mask: scrub,
      };
      const channel = channelOf(row.type);
      if (channel.kind === "heartbeat") {
        // The test message reaches a monitor as a successful check-in that carries its text.
        error = await channel.beat(
          options,
          "event" in content ? { up: true, message: content.message } : content,
          send,
        );
      } else if ("event" in content) {
        error = await channel.send(options, content, send);
      } else {
        error = null; // heartbeats go to heartbeat channels only (passed)
      }
      // Whatever a channel answers, no secret value leaves in it.
      if (error !== null) error = scrub(error);
    } catch {
      error =
        "The notification's stored secrets cannot be decrypted (was DDNS_ENCRYPTION_KEY changed?); enter them again";
    }
    this.deps.store.notifications.noteDelivery(row.id, error, Date.now());
    return error;
  }
}

/** A notification's secret values (a bot token, a push URL and the token in it, a webhook's headers), for the scrubber. */
function secretOptionValues(options: Record<string, unknown>, row: NotificationRow): unknown[] {
  return channelOf(row.type)
    .options.filter((option) => option.secret)
    .map((option) => options[option.key]);
}

/** A pass as a heartbeat: up unless a record failed, with a line for the monitor's log. */
function heartbeatOf(words: NotificationTexts, outcomes: readonly UpdateOutcome[]): Heartbeat {
  const failed = outcomes.filter((outcome) => outcome.result === "failed");
  const changed = outcomes.filter((outcome) => outcome.changed).length;
  if (failed.length === 0) return { up: true, message: words.beatUp(outcomes.length, changed) };
  const first = failed[0]!;
  return {
    up: false,
    message: bounded(words.beatDown(failed.length, outcomes.length, first.hostname, first.recordType, first.message)),
  };
}
