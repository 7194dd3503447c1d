// The domain form's "Address from" field: where this record's address comes from (the system's
// source, the echo services, DNS resolvers, an interface, the router's pushes only, or a fixed
// address), each choice saying in a few words when it fits and what address it gives now: the
// newest answer of that source, an interface's current addresses, the last pushed address. The echo
// services and the resolvers are not asked just to show the form; its "Ask now" buttons ask one of
// them (a plain form post answered by the form again, or with htmx the answer swapped into the
// field's live region and the choices' labels refreshed).

import { Html } from "@elysiajs/html";
import { controlAttrs, Field, type FormErrors, NO_ERRORS, Options } from "../components";
import { relative } from "../format";
import { msg } from "../i18n";
import { AddressListFields, type AddressListValues } from "./address-list";

/** What the choices show: the system's source per family, each source's newest answer, the interfaces, the last push. */
export interface AddressSourceChoices {
  /** The system's source of each family as it is in effect (`web`, `dns`, `interface:eth0`). */
  system: { ipv4: string; ipv6: string };
  /** The newest answer of each source asked so far, by `<family> <source>` (e.g. `4 web`). */
  answers: Record<string, { ip: string | null; error: string | null }>;
  interfaces: { name: string; ipv4: string[]; ipv6: string[] }[];
  /** The domain's last pushed address (editing), else null. */
  pushedIp: string | null;
  /** What the source an "Ask now" just asked answered (a plain form post shows it in the field); else null. */
  asked: AskedAnswer | null;
  /** When the choices were read, ms since the epoch. */
  now: number;
}

/** The form's two fields: the choice (`fixed` for a fixed address) and the fixed address. */
export interface AddressSourceValues extends AddressListValues {
  address_source: string;
  fixed_address: string;
}

/** The sources an "Ask now" button asks: those whose answer takes a request to another machine. */
export const ASKABLE_SOURCES = ["web", "dns"] as const;
export type AskableSource = (typeof ASKABLE_SOURCES)[number];

/** One source's answer to an "Ask now": its address or why it failed, and when it was asked. */
export interface AskedAnswer {
  source: AskableSource;
  ip: string | null;
  error: string | null;
  checkedAt: number;
}

/** The id of the live region that says what the source just asked answered. */
export const ASKED_ANSWER_ID = "address-source-asked";

/** What an askable source is called in a sentence and on its button. */
function askableNames(source: AskableSource): { subject: string; button: string } {
  const words = msg().addressSource;
  return source === "web"
    ? { subject: words.echoSubject, button: words.echoButton }
    : { subject: words.dnsSubject, button: words.dnsButton };
}

/** What a source gives now, in a few words. */
function givesNow(choices: AddressSourceChoices, family: 4 | 6, source: string): string {
  const words = msg().addressSource;
  const answer = choices.answers[`${family} ${source}`];
  if (answer === undefined) return words.notAsked;
  return answer.ip !== null ? words.now(answer.ip) : words.failingNow;
}

/** The record type's address family. */
function familyOf(recordType: string): 4 | 6 {
  return recordType === "AAAA" ? 6 : 4;
}

/** What the asked source answered, in a sentence (the content of the live region). */
function AskedAnswerSentence({ asked, family, now }: { asked: AskedAnswer; family: 4 | 6; now: number }) {
  const words = msg().addressSource;
  const subject = Html.escapeHtml(askableNames(asked.source).subject);
  // Said once and left as it is: a time that counted on inside the live region would be announced again and again.
  const when = Html.escapeHtml(words.asked(relative(asked.checkedAt, now)));
  if (asked.ip !== null) {
    return (
      <p class="help" data-asked={asked.source}>
        {words.gives(subject, `<code class="ip">${Html.escapeHtml(asked.ip)}</code>`, when)}
      </p>
    );
  }
  // The source's own words for why it failed stay as it said them.
  return (
    <p class="help source-ask-failing" data-asked={asked.source}>
      {words.givesNone(subject, family, when)}{" "}
      {asked.error === null ? (
        <span safe>{words.noAnswer}</span>
      ) : (
        <span lang="en" safe>
          {asked.error}
        </span>
      )}
    </p>
  );
}

/**
 * The choice itself. `oob`: sent after an "Ask now" with htmx, to replace the form's select in
 * place (its labels then say what the source just answered), the choice made kept.
 */
function AddressSourceSelect({
  values,
  errors,
  recordType,
  choices,
  oob = false,
}: {
  values: AddressSourceValues;
  errors: FormErrors;
  recordType: string;
  choices: AddressSourceChoices;
  oob?: boolean;
}) {
  const words = msg().addressSource;
  const family = familyOf(recordType);
  const key = family === 4 ? "ipv4" : "ipv6";
  const system = choices.system[key];
  const interfaces = choices.interfaces.map((item) => ({
    value: `interface:${item.name}`,
    label: words.interface(item.name, item[key].length > 0 ? item[key].join(", ") : words.noUsable(family)),
  }));
  // A chosen interface that is gone (unplugged, renamed, a PPP link that is down) stays selectable, saying so.
  if (
    values.address_source.startsWith("interface:") &&
    !interfaces.some((option) => option.value === values.address_source)
  ) {
    interfaces.push({
      value: values.address_source,
      label: words.interfaceGone(values.address_source.slice("interface:".length)),
    });
  }
  return (
    <select {...controlAttrs("address_source", errors)} hx-swap-oob={oob ? "true" : undefined}>
      <Options
        options={[
          { value: "", label: words.system(system, givesNow(choices, family, system)) },
          { value: "web", label: words.web(givesNow(choices, family, "web")) },
          { value: "dns", label: words.dns(givesNow(choices, family, "dns")) },
          ...interfaces,
          {
            value: "push",
            label: words.push(choices.pushedIp === null ? words.nonePushed : words.lastPushed(choices.pushedIp)),
          },
          { value: "fixed", label: words.fixedChoice },
        ]}
        selected={values.address_source}
      />
    </select>
  );
}

/**
 * What an "Ask now" made with htmx gets: the answer in a sentence, for the field's live region, and
 * the choice again with its labels saying what the source answered, swapped in out of band.
 */
export function AskNowAnswer({
  values,
  recordType,
  choices,
}: {
  values: AddressSourceValues;
  recordType: string;
  choices: AddressSourceChoices;
}) {
  return (
    <>
      {choices.asked !== null ? (
        <AskedAnswerSentence asked={choices.asked} family={familyOf(recordType)} now={choices.now} />
      ) : (
        ""
      )}
      <AddressSourceSelect values={values} errors={NO_ERRORS} recordType={recordType} choices={choices} oob />
    </>
  );
}

/**
 * "Ask now" for the echo services and the resolvers: each button posts the form to where it posts
 * anyway, which asks; without JavaScript the form comes back as it was, with the answer; with htmx
 * only the answer and the choices' labels are swapped in. `asked`: what the source just asked answered.
 */
function AskNow({
  action,
  family,
  asked,
  now,
}: {
  action: string;
  family: 4 | 6;
  asked: AskedAnswer | null;
  now: number;
}) {
  return (
    <div class="source-ask" data-error-slot>
      <p class="help" id="address-source-ask-help" safe>
        {msg().addressSource.askHelp(family)}
      </p>
      <div class="actions">
        {ASKABLE_SOURCES.map((source) => (
          <button
            type="submit"
            name="ask_source"
            value={source}
            id={`ask-source-${source}`}
            class="button button-small"
            formnovalidate
            aria-describedby="address-source-ask-help"
            hx-post={action}
            hx-target={`#${ASKED_ANSWER_ID}`}
            hx-swap="innerHTML"
            hx-disabled-elt="this"
          >
            {Html.escapeHtml(askableNames(source).button)}
          </button>
        ))}
      </div>
      <div id={ASKED_ANSWER_ID} aria-live="polite">
        {asked !== null ? <AskedAnswerSentence asked={asked} family={family} now={now} /> : ""}
      </div>
    </div>
  );
}

export function AddressSourceField({
  values,
  errors,
  recordType,
  choices,
  action,
}: {
  values: AddressSourceValues;
  errors: FormErrors;
  recordType: string;
  choices: AddressSourceChoices;
  /** Where the form posts: an "Ask now" posts there too. */
  action: string;
}) {
  const words = msg().addressSource;
  const family = familyOf(recordType);
  return (
    <fieldset class="field address-source" aria-describedby="address-source-help">
      <legend safe>{words.legend}</legend>
      <Field name="address_source" label={words.label} errors={errors}>
        <AddressSourceSelect values={values} errors={errors} recordType={recordType} choices={choices} />
      </Field>
      <AskNow action={action} family={family} asked={choices.asked} now={choices.now} />
      <Field name="fixed_address" label={words.fixed} errors={errors} help={Html.escapeHtml(words.fixedHelp(family))}>
        <input
          type="text"
          value={values.fixed_address}
          autocomplete="off"
          autocapitalize="none"
          spellcheck="false"
          class="mono"
          {...controlAttrs("fixed_address", errors, true)}
        />
      </Field>
      <AddressListFields values={values} errors={errors} />
      <ul class="help" id="address-source-help">
        {[
          [words.systemTerm, Html.escapeHtml(words.systemHelp)],
          [words.echoTerm, Html.escapeHtml(words.echoHelp)],
          [words.dnsTerm, Html.escapeHtml(words.dnsHelp)],
          [words.interfaceTerm, Html.escapeHtml(words.interfaceHelp)],
          [words.pushTerm, words.pushHelp("<code>/nic/update</code>")],
          [words.fixedTerm, Html.escapeHtml(words.fixedTermHelp)],
        ].map(([term, help]) => (
          <li>
            <strong safe>{term}</strong>
            {help}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
