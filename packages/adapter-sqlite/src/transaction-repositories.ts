import type { Repositories } from "@lineage/core";

/**
 * Makes the repositories handed to each transaction out of the write connection's: the same
 * methods, each refused once its transaction is over, so a `tx` kept past its transaction (an
 * unawaited call, a closure) cannot write into whichever transaction holds the connection next.
 * The method lists are read once; a transaction costs one small object per repository.
 */
export function transactionRepositories(repositories: Repositories): (isOpen: () => boolean) => Repositories {
  const names = Object.keys(repositories) as (keyof Repositories)[];
  const members = new Map(names.map((name) => [name, Object.entries(repositories[name]) as [string, unknown][]]));
  return (isOpen) => {
    const guarded: Record<string, unknown> = {};
    for (const name of names) {
      const repository: Record<string, unknown> = {};
      for (const [key, member] of members.get(name)!) {
        repository[key] = typeof member !== "function" ? member : (...args: unknown[]) =>
          isOpen() ? member(...args) : Promise.reject(new Error(`${name}.${key} was called after its transaction ended`));
      }
      guarded[name] = repository;
    }
    return guarded as unknown as Repositories;
  };
}
