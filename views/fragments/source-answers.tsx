// The address card's list of sources: each source asked so far (the system's first, then the
// domains' own: an interface, DNS, a fixed address) with its own newest answer — the address, or
// why it failed, each service's words — and since when it says so. Shown with or without domains,
// so a first start with no internet says why no address was found.

import { Html } from "@elysiajs/html";
import type { SourceAnswer } from "../../src/ip/public-ip";
import { Ip, quotedEnglish, TimeAgo } from "../components";
import { msg } from "../i18n";

export type ShownAnswer = SourceAnswer & { system: boolean };

export function SourceAnswers({ answers, now }: { answers: ShownAnswer[]; now: number }) {
  if (answers.length === 0) return "";
  const words = msg().sourceAnswers;
  return (
    <ul class="source-answers small" aria-label={words.label}>
      {answers.map((answer) => (
        <li
          class={["source-answer", answer.error !== null && "source-answer-failing"]}
          data-source={`${answer.family} ${answer.source}`}
        >
          <span class="muted">IPv{String(answer.family)} · </span>
          <code safe>{answer.source}</code>
          {answer.system ? <span class="muted"> {words.systemSource}</span> : ""}
          {": "}
          {answer.ip !== null ? (
            <>
              <Ip ip={answer.ip} />{" "}
              <span class="muted">{words.since(String(<TimeAgo at={answer.since} now={now} />))}</span>
              {answer.via !== null && answer.via !== answer.source ? (
                <div class="muted" safe>
                  {words.asked(answer.via)}
                </div>
              ) : (
                ""
              )}
            </>
          ) : (
            <>
              <strong>{words.failing}</strong>{" "}
              <span class="muted">{words.since(String(<TimeAgo at={answer.since} now={now} />))}</span>
              <div {...quotedEnglish()} safe>
                {answer.error}
              </div>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
