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

const ASKABLE_NAMES: Record<AskableSource, { subject: string; button: string }> = {
  web: { subject: "The echo services", button: "Ask the echo services now" },
  dns: { subject: "The DNS resolvers", button: "Ask the DNS resolvers now" },
};

/** What a source gives now, in a few words. */
function givesNow(choices: AddressSourceChoices, family: 4 | 6, source: string): string {
  const answer = choices.answers[`${family} ${source}`];
  if (answer === undefined) return "not asked yet";
  return answer.ip !== null ? `now ${answer.ip}` : "failing now";
}

/** The record type's address family. */
function familyOf(recordType: string): 4 | 6 {
  return recordType === "AAAA" ? 6 : 4;
}

/** What the asked source answered, in a sentence (the content of the live region). */
function AskedAnswerSentence({ asked, family, now }: { asked: AskedAnswer; family: 4 | 6; now: number }) {
  const { subject } = ASKABLE_NAMES[asked.source];
  // Said once and left as it is: a time that counted on inside the live region would be announced again and again.
  const when = `asked ${relative(asked.checkedAt, now)}`;
  if (asked.ip !== null) {
    return (
      <p class="help" data-asked={asked.source}>
        {subject} give <code class="ip">{asked.ip}</code> ({when}).
      </p>
    );
  }
  return (
    <p class="help source-ask-failing" data-asked={asked.source}>
      {subject} give no IPv{String(family)} address ({when}): <span safe>{asked.error ?? "no answer"}</span>
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
  const family = familyOf(recordType);
  const key = family === 4 ? "ipv4" : "ipv6";
  const system = choices.system[key];
  const interfaces = choices.interfaces.map((item) => ({
    value: `interface:${item.name}`,
    label: `Interface ${item.name} — ${item[key].length > 0 ? item[key].join(", ") : `no usable IPv${family} address now`}`,
  }));
  // A chosen interface that is gone (unplugged, renamed, a PPP link that is down) stays selectable, saying so.
  if (
    values.address_source.startsWith("interface:") &&
    !interfaces.some((option) => option.value === values.address_source)
  ) {
    interfaces.push({
      value: values.address_source,
      label: `Interface ${values.address_source.slice("interface:".length)} — not found on this machine now`,
    });
  }
  return (
    <select {...controlAttrs("address_source", errors)} hx-swap-oob={oob ? "true" : undefined}>
      <Options
        options={[
          { value: "", label: `The system's source (${system}) — ${givesNow(choices, family, system)}` },
          { value: "web", label: `Echo services on the web — ${givesNow(choices, family, "web")}` },
          { value: "dns", label: `DNS resolvers — ${givesNow(choices, family, "dns")}` },
          ...interfaces,
          {
            value: "push",
            label: `Router pushes only — ${choices.pushedIp === null ? "none pushed yet" : `last pushed ${choices.pushedIp}`}`,
          },
          { value: "fixed", label: "A fixed address (below)" },
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
      <p class="help" id="address-source-ask-help">
        The echo services and the DNS resolvers are asked only when a record needs them. Ask one now to see the IPv
        {String(family)} address it gives (an answer less than a minute old is shown again rather than asked anew).
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
            {ASKABLE_NAMES[source].button}
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
  const family = familyOf(recordType);
  return (
    <fieldset class="field address-source" aria-describedby="address-source-help">
      <legend>Address from</legend>
      <Field name="address_source" label="Where this record's address comes from" errors={errors}>
        <AddressSourceSelect values={values} errors={errors} recordType={recordType} choices={choices} />
      </Field>
      <AskNow action={action} family={family} asked={choices.asked} now={choices.now} />
      <Field
        name="fixed_address"
        label="Fixed address"
        errors={errors}
        help={<>Only with “A fixed address”: the IPv{String(family)} address the record always holds.</>}
      >
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
        <li>
          <strong>The system's source</strong>: what About → Address sources sets for every domain; the usual choice.
        </li>
        <li>
          <strong>Echo services</strong>: web services that answer the address they see; two must agree before a write.
        </li>
        <li>
          <strong>DNS resolvers</strong>: for networks that block the echo services but not DNS.
        </li>
        <li>
          <strong>An interface</strong>: this machine holds the public address itself (PPPoE, a routed prefix); with
          several WANs, one interface per name.
        </li>
        <li>
          <strong>Router pushes only</strong>: the router's /nic/update alone sets it (behind a proxy or VPN, where
          detection sees another address); the schedule never writes it.
        </li>
        <li>
          <strong>A fixed address</strong>: a static address that never changes.
        </li>
      </ul>
    </fieldset>
  );
}
