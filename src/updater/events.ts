// What the update path tells the rest of the appliance (notifications, Prometheus counters) once an
// outcome is stored. The sink is passed in through the context and must return at once: whatever
// it does with an event happens off the update path.

import type { DomainRow } from "../store/rows";
import type { Detection, IpFamily } from "../ip/detect";
import type { Trigger, UpdateOutcome } from "./outcome";

export interface RecordedUpdate {
  /** The domain as it was before this attempt (its status tells a new failure from a streak). */
  before: DomainRow;
  outcome: UpdateOutcome;
  trigger: Trigger;
}

export interface EventSink {
  /** One detection of the public address of a family (echo services or an interface). */
  detected(family: IpFamily, detection: Detection): void;
  /** An attempt's history row and the domain's new state are stored. */
  recorded(update: RecordedUpdate): void;
  /** A scheduled pass has finished with these records (never called for a pass with none). */
  passed?(outcomes: readonly UpdateOutcome[]): void;
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
  };
}
