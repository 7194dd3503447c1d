// What the update path tells the rest of the appliance (notifications, Prometheus counters) once an
// outcome is stored. The sink is passed in through the context and must return at once: whatever
// it does with an event happens off the update path.

import type { RecordType } from "../dns/provider";
import type { Detection } from "../ip/detect";
import type { IpFamily } from "../net/address";
import type { DomainRow } from "../store/rows";
import type { Trigger, UpdateOutcome } from "./outcome";

export interface RecordedUpdate {
  /** The domain as it was before this attempt (its status tells a new failure from a streak). */
  before: DomainRow;
  outcome: UpdateOutcome;
  trigger: Trigger;
}

/** A record still not served by every name server when its watch ended (./propagation.ts). */
export interface NotServed {
  domainId: number;
  hostname: string;
  recordType: RecordType;
  providerId: number;
  ip: string;
  /** Which name servers lag and what they answer. */
  message: string;
}

/** A push-only record gone stale (./push-stale.ts), as the notifications tell it. */
export type StalePush = Pick<DomainRow, "id" | "domainName" | "recordType" | "pushedAt" | "createdAt">;

export interface EventSink {
  /** One detection of the public address of a family (echo services or an interface). */
  detected(family: IpFamily, detection: Detection): void;
  /** An attempt's history row and the domain's new state are stored. */
  recorded(update: RecordedUpdate): void;
  /** A scheduled pass has finished with these records (never called for a pass with none). */
  passed?(outcomes: readonly UpdateOutcome[]): void;
  /** A record is still not served by every name server 10 minutes after its write or check. */
  notServed?(report: NotServed): void;
  /** A push-only record has had no push for DDNS_PUSH_STALE_AFTER (told once per quiet spell). */
  pushStale?(domain: StalePush): void;
}

/** One sink that hands every event to each of `sinks`; one failing never keeps the others from it. */
export function fanOut(sinks: EventSink[], onError: (error: unknown) => void): EventSink {
  const each = (call: (sink: EventSink) => void) => {
    for (const sink of sinks) {
      try {
        call(sink);
      } catch (error) {
        onError(error);
      }
    }
  };
  return {
    detected: (family, detection) => each((sink) => sink.detected(family, detection)),
    recorded: (update) => each((sink) => sink.recorded(update)),
    passed: (outcomes) => each((sink) => sink.passed?.(outcomes)),
    notServed: (report) => each((sink) => sink.notServed?.(report)),
    pushStale: (domain) => each((sink) => sink.pushStale?.(domain)),
  };
}
