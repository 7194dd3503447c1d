// Turns the update path's events into messages (CONTRACT §11) and delivers them off the update
// path: each enabled notification that asked for the event gets it, a failed delivery is tried
// again after 1 s, 5 s and 25 s, and the notification keeps `last_sent_at` / `last_error`.
//
// Streaks: `update_failed` goes out for the first failure after a success (or for a record never
// written), `update_recovered` for the first success after failures, both read from the domain's
// stored status before the attempt, so a restart does not repeat them. `detection_failed` is per
// address family, once until a detection of that family succeeds again (kept in memory: after a
// restart an ongoing outage is reported once more).

import { eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { notifications, providers, type NotificationEvent, type NotificationRow } from "../db/schema";
import type { Detection, IpFamily } from "../ip/detect";
import { openOptions, SECRET_OPTIONS } from "../modules/notifications/service";
import { maskSecret } from "../security/secrets";
import type { EventSink, RecordedUpdate } from "../updater/events";
import { send, type NotificationMessage } from "./senders";

const TITLES: Record<NotificationEvent | "test", string> = {
  ip_changed: "ddnsd: address changed",
  update_failed: "ddnsd: update failed",
  update_recovered: "ddnsd: updates work again",
  detection_failed: "ddnsd: address detection failed",
  test: "ddnsd: test message",
};

type MessageFacts = Omit<NotificationMessage, "event" | "title" | "timestamp">;

/** The sentence a person reads on a phone, for an update's event. */
export function describeUpdate(event: Exclude<NotificationEvent, "detection_failed">, update: RecordedUpdate, providerName: string): string {
  const { hostname, recordType, ip, previousIp, message } = update.outcome;
  switch (event) {
    case "ip_changed":
      return `${hostname} now points at ${ip}${previousIp ? ` (was ${previousIp})` : ""}`;
    case "update_failed":
      return `Updating ${hostname} (${recordType}) at ${providerName} failed: ${message}`;
    case "update_recovered":
      return `${hostname} (${recordType}) updates again at ${providerName}; it points at ${ip}`;
  }
}

export class Notifier implements EventSink {
  /** Waits before the 2nd, 3rd and 4th attempt of a delivery; tests shorten them. */
  retryDelaysMs = [1_000, 5_000, 25_000];
  private readonly detectionFailing = new Set<IpFamily>();
  private readonly deliveries = new Set<Promise<void>>();

  constructor(private readonly ctx: AppContext) {}

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
      message: `ddnsd cannot find its public IPv${family} address: ${detection.error}`,
    });
  }

  recorded(update: RecordedUpdate): void {
    const { before, outcome } = update;
    const events: Exclude<NotificationEvent, "detection_failed">[] = [];
    if (outcome.result === "updated") {
      if (outcome.changed) events.push("ip_changed");
      if (before.lastUpdateStatus === "FAILED") events.push("update_recovered");
    } else if (outcome.failure === "provider" && before.lastUpdateStatus !== "FAILED") {
      events.push("update_failed");
    }
    if (events.length === 0) return;
    const provider = this.ctx.db.select({ name: providers.name }).from(providers).where(eq(providers.id, before.providerId)).get()?.name ?? "its provider";
    for (const event of events) {
      this.emit(event, {
        domain: outcome.hostname,
        record_type: outcome.recordType,
        provider,
        ip: outcome.ip,
        previous_ip: outcome.previousIp,
        message: describeUpdate(event, update, provider),
      });
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
      message: `This is a test message from ddnsd, sent through "${row.name}".`,
    });
    return this.attempt(row, message);
  }

  private message(event: NotificationEvent | "test", facts: MessageFacts): NotificationMessage {
    return { event, title: TITLES[event], ...facts, timestamp: new Date().toISOString() };
  }

  /** Queues the event for every enabled notification that wants it; returns at once. */
  private emit(event: NotificationEvent, facts: MessageFacts): void {
    const message = this.message(event, facts);
    const rows = this.ctx.db.select().from(notifications).where(eq(notifications.isEnabled, true)).all();
    for (const row of rows) {
      if (!row.events.includes(event)) continue;
      const delivery = this.deliver(row, message).catch((error: unknown) => {
        this.ctx.log.error("notification delivery failed unexpectedly", { notification_id: row.id, error: String(error) });
      });
      this.deliveries.add(delivery);
      void delivery.finally(() => this.deliveries.delete(delivery));
    }
  }

  private async deliver(row: NotificationRow, message: NotificationMessage): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const error = await this.attempt(row, message);
      if (error === null) return;
      const delay = this.retryDelaysMs[attempt];
      if (delay === undefined) {
        this.ctx.log.warn("notification not delivered", { notification_id: row.id, event: message.event, reason: error });
        return;
      }
      await new Promise((wake) => setTimeout(wake, delay).unref());
    }
  }

  /** One try; the outcome is stored on the notification. Secret values never appear in the reason. */
  private async attempt(row: NotificationRow, message: NotificationMessage): Promise<string | null> {
    let options: Record<string, unknown>;
    let error: string | null;
    try {
      options = openOptions(this.ctx, row);
      error = await send(row.type, options, message, {
        fetch: this.ctx.fetch,
        timeoutMs: this.ctx.settings.httpTimeoutMs,
        telegramApiUrl: this.ctx.settings.telegramApiUrl,
        mask: (text) => masked(text, options),
      });
    } catch {
      error = "The notification's stored secrets cannot be decrypted (was DDNS_ENCRYPTION_KEY changed?); enter them again";
    }
    this.ctx.db
      .update(notifications)
      .set(error === null ? { lastSentAt: Date.now(), lastError: null } : { lastError: error })
      .where(eq(notifications.id, row.id))
      .run();
    return error;
  }
}

/** `text` with every secret option's value (a bot token in a URL path, a webhook URL) masked. */
function masked(text: string, options: Record<string, unknown>): string {
  let result = text;
  for (const key of SECRET_OPTIONS) {
    const value = options[key];
    if (typeof value === "string" && value !== "") result = result.replaceAll(value, maskSecret(value));
  }
  return result;
}
