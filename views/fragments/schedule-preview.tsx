// The schedule field's live feedback: the next runs in plain words, or why the expression can't
// be used. Re-fetched as the user types; on a submitted form it also carries the field's error.

import { Html } from "@elysiajs/html";
import { every, shortTime } from "../format";
import { msg } from "../i18n";

export type SchedulePreviewData =
  | {
      kind: "runs";
      /** The default interval when the schedule is empty; null for a cron expression. */
      defaultInterval: number | null;
      runs: number[];
      /** Show seconds (a 6-field expression runs on them). */
      seconds: boolean;
      now: number;
    }
  | { kind: "invalid"; problem: string };

export const SCHEDULE_HELP_ID = "f-cron_schedule-help";
export const SCHEDULE_ERROR_ID = "f-cron_schedule-error";

export function SchedulePreview({ preview }: { preview: SchedulePreviewData }) {
  return (
    <div id="schedule-preview" aria-live="polite">
      {preview.kind === "invalid" ? (
        <p class="field-error" id={SCHEDULE_ERROR_ID} safe>
          {preview.problem}
        </p>
      ) : (
        <p class="help schedule-runs" id={SCHEDULE_HELP_ID}>
          {preview.defaultInterval !== null ? (
            <strong safe>{`${every(preview.defaultInterval)} (${msg().domainForm.defaultInterval}) · `}</strong>
          ) : (
            ""
          )}
          {Html.escapeHtml(msg().domainForm.next)}{" "}
          {preview.runs.map((run) => shortTime(run, preview.now, preview.seconds)).join(", ")}
        </p>
      )}
    </div>
  );
}
