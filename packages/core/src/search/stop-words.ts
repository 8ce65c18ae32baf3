/**
 * The stop words of the original's text search configurations: Postgres' snowball lists
 * (english.stop, french.stop), word for word. The original runs `unaccent` before the parser,
 * so a text's "été" reaches the list as "ete" and is kept: words are matched here folded too,
 * and the accented entries, kept for the record, never match. French keeps "les" (it is not in
 * the list), as the original's own query tests show (`les cale*` gives `'le' & 'cale':*`).
 */
export const STOP_WORDS: { readonly english: ReadonlySet<string>; readonly french: ReadonlySet<string> } = {
  english: new Set(
    ("i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself " +
      "it its itself they them their theirs themselves what which who whom this that these those am is are was were be " +
      "been being have has had having do does did doing a an the and but if or because as until while of at by for with " +
      "about against between into through during before after above below to from up down in out on off over under again " +
      "further then once here there when where why how all any both each few more most other some such no nor not only " +
      "own same so than too very s t can will just don should now").split(" "),
  ),
  french: new Set(
    ("au aux avec ce ces dans de des du elle en et eux il je la le leur lui ma mais me même mes moi mon ne nos notre nous " +
      "on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous c d j l à m n s t y été " +
      "étée étées étés étant étante étants étantes suis es est sommes êtes sont serai seras sera serons serez seront serais " +
      "serait serions seriez seraient étais était étions étiez étaient fus fut fûmes fûtes furent sois soit soyons soyez " +
      "soient fusse fusses fût fussions fussiez fussent ayant ayante ayantes ayants eu eue eues eus ai as avons avez ont " +
      "aurai auras aura aurons aurez auront aurais aurait aurions auriez auraient avais avait avions aviez avaient eut " +
      "eûmes eûtes eurent aie aies ait ayons ayez aient eusse eusses eût eussions eussiez eussent").split(" "),
  ),
};
