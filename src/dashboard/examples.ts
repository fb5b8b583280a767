// The playground's example texts, written for it: a news item, a product review (which opens
// with an emoji, so every offset after it is exercised) and an encyclopedia-style biography.
export interface Example {
  key: string
  label: string
  text: string
}

export const EXAMPLES: readonly Example[] = [
  {
    key: 'news',
    label: 'News article',
    text:
      'Microsoft said on Tuesday that it would buy the game publisher Activision Blizzard for $68.7 billion in cash. ' +
      'Satya Nadella, the chief executive of Microsoft, told analysts that the deal would help the company compete with Sony and Tencent. ' +
      'Activision, which is based in Santa Monica, California, makes Call of Duty and World of Warcraft. ' +
      'Regulators in Brussels and London are expected to review the purchase.',
  },
  {
    key: 'review',
    label: 'Product review',
    text:
      '🎧⭐⭐⭐⭐ I bought the Sony WH-1000XM5 at a Best Buy store in Chicago after my old Bose QuietComfort 35 broke. ' +
      'The noise cancelling is better than on the Bose, and the Headphones Connect app works well on my Google Pixel 8. ' +
      'Battery life is close to the thirty hours Sony promises. My only complaint: the case is much bigger than the one Apple ships with the AirPods Pro, ' +
      'so it no longer fits in my bag.',
  },
  {
    key: 'biography',
    label: 'Biography',
    text:
      'Marie Curie (7 November 1867 – 4 July 1934) was a Polish and naturalised French physicist and chemist who did pioneering research on radioactivity. ' +
      'She was born in Warsaw, then part of the Russian Empire, and studied at the University of Paris, where she met Pierre Curie. ' +
      'Curie was the first woman to win a Nobel Prize. In 1914 she founded the Radium Institute in Paris, and she later worked with Albert Einstein ' +
      'on the International Committee on Intellectual Cooperation of the League of Nations.',
  },
]
