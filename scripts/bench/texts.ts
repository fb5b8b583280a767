// The bench's texts: news-like sentences repeated in a shuffled order up to a length.
const SENTENCES = [
  'Tim Cook is the chief executive of Apple, which is based in Cupertino, California.',
  'Apple acquired Beats Electronics in 2014 for about three billion dollars.',
  'Analysts in London said the company would open a new office in Berlin next year.',
  'Satya Nadella, who leads Microsoft, met Angela Merkel in Munich on Tuesday.',
  'Toyota builds the Corolla at its plant in Georgetown, Kentucky.',
  'The European Central Bank in Frankfurt kept interest rates unchanged.',
  'Maria Schmidt works for Siemens and lives in Hamburg with her family.',
  'Shares of Tesla fell after Elon Musk sold part of his stake in the company.',
]

export function makeText(length: number): string {
  let s = ''
  for (let i = 0; s.length < length; i++) s += SENTENCES[(i * 5 + Math.floor(i / 8)) % SENTENCES.length] + ' '
  return s.slice(0, length)
}
