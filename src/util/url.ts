// URLs as the settings and the forms accept them.

/** Whether the text is an absolute http: or https: URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
