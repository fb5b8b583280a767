// A name's token range in a tokenized text, for the tests of the mention rules that read one.
import { tokenize } from '../../src/nlp/tokens.ts'

/** The tokens of `text` and the token range [a, b) of the first `name` in them. */
export function rangeOf(text: string, name: string): [ReturnType<typeof tokenize>, number, number] {
  const doc = tokenize(text)
  const at = text.indexOf(name)
  const a = doc.tokens.findIndex((x) => x.start === at)
  const b = doc.tokens.findIndex((x) => x.end === at + name.length) + 1
  return [doc, a, b]
}
