// A domain with several address sources (docs/operations.md, "Several addresses for one name"): the
// form's list of further sources, one a line (usable without JavaScript), and the mode that fills the
// record from them; and, for the lists and the dashboard, each address with the source that gave it.

import { Html } from "@elysiajs/html";
import type { SourceAnswer } from "../../src/ip/public-ip";
import { controlAttrs, Field, type FormErrors, Options } from "../components";
import { msg } from "../i18n";

/** The form's values for a list of sources: the further sources one a line, and `all` or `first`. */
export interface AddressListValues {
  more_sources: string;
  addresses_mode: string;
}

/** The further sources and the mode, under the first source's choice. */
export function AddressListFields({ values, errors }: { values: AddressListValues; errors: FormErrors }) {
  const words = msg().addressList;
  return (
    <div class="address-list">
      <Field
        name="more_sources"
        label={words.moreSources}
        errors={errors}
        help={words.moreSourcesHelp(
          "<code>interface:wan2</code>",
          "<code>web</code>",
          "<code>dns</code>",
          "<code>fixed:203.0.113.7</code>",
        )}
      >
        <textarea rows="2" spellcheck="false" class="mono" {...controlAttrs("more_sources", errors, true)} safe>
          {values.more_sources}
        </textarea>
      </Field>
      <Field name="addresses_mode" label={words.mode} errors={errors} help={words.modeHelp}>
        <select {...controlAttrs("addresses_mode", errors, true)}>
          <Options
            options={[
              { value: "all", label: words.modeAll },
              { value: "first", label: words.modeFirst },
            ]}
            selected={values.addresses_mode || "all"}
          />
        </select>
      </Field>
    </div>
  );
}

/** One source of a list as the pages show it: its newest answer (an address, or why it gave none). */
export interface ListedSource {
  source: string;
  answer: Pick<SourceAnswer, "ip" | "error"> | null;
  /** Whether the record holds this source's address now. */
  published: boolean;
}

/** Each address of a domain with several sources, beside the source that gave it, and each source that fails. */
export function AddressList({ sources }: { sources: readonly ListedSource[] }) {
  const words = msg().addressList;
  return (
    <ul class="address-list plain small">
      {sources.map((item) => (
        <li data-source={item.source} data-published={String(item.published)}>
          <span class="mono" safe>
            {item.answer?.ip ?? "—"}
          </span>{" "}
          <span class="muted" safe>
            {words.from(item.source)}
          </span>
          {item.answer?.error ? (
            <>
              {" "}
              <span class="warn" safe>
                {words.failing(item.answer.error)}
              </span>
            </>
          ) : item.published ? (
            ""
          ) : (
            <span class="muted"> {words.notPublished}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
