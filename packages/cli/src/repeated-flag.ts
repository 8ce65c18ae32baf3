/** The argParser of a flag that may be repeated (`--role a --role b`): the values in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
