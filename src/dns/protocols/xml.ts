// A small XML reader for the answers of XML APIs (Route 53): elements and their text, nothing else
// (attributes such as `xmlns` are accepted and skipped). Deliberately safe rather than complete: a DOCTYPE or entity declaration, CDATA, a
// mismatched tag or nesting past MAX_DEPTH makes the document unreadable (undefined), so no answer can
// expand entities or exhaust memory. Namespace prefixes are dropped from names.

export interface XmlElement {
  name: string;
  children: XmlElement[];
  /** The element's own text, entities decoded (text of its children not included). */
  text: string;
}

const MAX_DEPTH = 64;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The root element, or undefined when `text` is not one well-formed element (after an optional prolog). */
export function parseXml(text: string): XmlElement | undefined {
  const source = text.replace(/^\uFEFF/, "").replace(/<!--[\s\S]*?-->/g, "");
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let read = 0;
  for (const [token] of source.matchAll(/<[^>]*>|[^<]+/g)) {
    read += token.length;
    if (token.startsWith("<?")) {
      // The prolog, only before the root.
      if (root || !token.endsWith("?>")) return undefined;
    } else if (token.startsWith("<!")) {
      return undefined;
    } else if (token.startsWith("</")) {
      const open = stack.pop();
      if (!open || open.name !== localName(token.slice(2, -1).trim())) return undefined;
    } else if (token.startsWith("<")) {
      const match = /^<([^\s/>]+)(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>$/.exec(token);
      if (!match || stack.length >= MAX_DEPTH) return undefined;
      const element: XmlElement = { name: localName(match[1] ?? ""), children: [], text: "" };
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root)
        return undefined; // a second root
      else root = element;
      if (match[2] !== "/") stack.push(element);
    } else {
      const open = stack.at(-1);
      if (open) open.text += decodeEntities(token);
      else if (token.trim() !== "") return undefined;
    }
  }
  // A stray "<" that starts no tag is skipped by the tokenizer: the lengths tell.
  return stack.length === 0 && read === source.length ? root : undefined;
}

/** The first child element named `name`. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** Every child element named `name`. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children.filter((c) => c.name === name) ?? [];
}

/** The trimmed text of the element at `path` below `element` (`["Error", "Code"]`). */
export function textAt(element: XmlElement | undefined, ...path: string[]): string | undefined {
  const found = path.reduce<XmlElement | undefined>((current, name) => child(current, name), element);
  return found?.text.trim();
}

/** Text made safe to put between tags or in a quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${Object.keys(ENTITIES).find((k) => ENTITIES[k] === c)};`);
}

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith("#x")) return codePoint(Number.parseInt(entity.slice(2), 16)) ?? whole;
    if (entity.startsWith("#")) return codePoint(Number.parseInt(entity.slice(1), 10)) ?? whole;
    return ENTITIES[entity] ?? whole;
  });
}

function codePoint(value: number): string | undefined {
  return value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : undefined;
}
