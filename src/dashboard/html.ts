// Tagged-template HTML that escapes every interpolated value unless it is already `Html`
// (the result of another `html` template or of `raw`). XSS-safe by default: a value from the
// database or the request can only reach a page as text.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

// Control characters (other than tab and line breaks) have no place in a page; a value echoed
// back from a form shows U+FFFD for them, as a browser would for a NUL.
export function escapeHtml(value: unknown): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what it replaces
  return String(value).replace(/[&<>"'`\0-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (c) => ESCAPES[c] ?? '\ufffd')
}

/** Markup that is already safe; only `html` and `raw` make one. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[]

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof Html) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(value)
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Html(out)
}

/** For constant markup written in this code base only; never for anything a user sent. */
export function raw(markup: string): Html {
  return new Html(markup)
}
