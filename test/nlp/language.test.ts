import t from 'tap'
import { detectLanguage } from '../../src/nlp/index.ts'
import { eldLanguage, languageDetector } from '../../src/nlp/language.ts'
import { hasData, readJsonl } from '../../scripts/nlp/data.ts'

const SAMPLES: [string, string][] = [
  ['en', 'The committee will publish its report next week, after the members have had time to read the evidence.'],
  ['de', 'Der Ausschuss wird seinen Bericht nächste Woche veröffentlichen, nachdem die Mitglieder die Beweise gelesen haben.'],
  ['fr', 'Le comité publiera son rapport la semaine prochaine, après que les membres auront eu le temps de lire les preuves.'],
  ['es', 'El comité publicará su informe la próxima semana, después de que los miembros hayan tenido tiempo de leer las pruebas.'],
  ['nb', 'Komiteen vil publisere rapporten sin neste uke, etter at medlemmene har hatt tid til å lese bevisene.'],
  ['ru', 'Комитет опубликует свой доклад на следующей неделе, после того как члены комитета ознакомятся с доказательствами.'],
  ['zh', '委员会将在下周发布报告，届时成员们将有时间阅读证据。'],
]

for (const [lang, text] of SAMPLES) t.equal(detectLanguage(text), lang, lang)

t.test('no letters at all falls back to English and does not throw', async (t) => {
  t.equal(detectLanguage('1234 5678 😀😀 !!! ' + '\u0000\uD800'.repeat(50)), 'en')
})

t.test('accuracy on langid dev', { skip: !hasData('langid/dev.jsonl') && 'shared data absent' }, async (t) => {
  const rows = readJsonl('langid/dev.jsonl')
  const ok = rows.filter((r) => detectLanguage(r.text) === r.language).length
  t.ok(ok / rows.length >= 0.99, `accuracy ${(ok / rows.length).toFixed(4)} ≥ 0.99`)
})

// detectLanguage scores eld's table itself (eldLanguage); eld's own detector over the same table
// is the reference: the same language for every text, edge cases included.
t.test('eldLanguage answers as eld does', async (t) => {
  const eld = languageDetector()
  const texts = [
    ...SAMPLES.map(([, text]) => text),
    '',
    '   ',
    '1234 5678',
    '😀😀 a',
    "don't stop the music, it's the band’s night",
    'ÅÄÖ åäö ΣΊΣΥΦΟΣ Straße İstanbul',
    '\uD800abc def',
    'abc\uDC00 def',
    'x'.repeat(5000),
    'word '.repeat(400),
    'Überweisung '.repeat(100),
    'a-b_c d.e,f;g',
  ]
  if (hasData('langid/dev.jsonl')) texts.push(...readJsonl('langid/dev.jsonl').map((r) => r.text))
  const differ = texts.filter((text) => eldLanguage(text) !== eld.detect(text).language)
  t.same(differ, [], `${texts.length} texts`)
})
