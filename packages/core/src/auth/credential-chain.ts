import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { ConfirmedCredential, CredentialProvider } from "../ports/credential-provider.port.ts";

/**
 * What the first provider knows without waiting (CredentialProvider.rememberedCredential); undefined
 * when it does not know, and then the chain must be asked in order, that provider first.
 */
export function rememberedThroughProviders(
  providers: readonly CredentialProvider[],
  login: string,
  password: string,
  stamp?: ChangeStamp,
): { credential: ConfirmedCredential; provider: CredentialProvider } | undefined {
  const first = providers[0];
  try {
    const credential = first?.rememberedCredential?.(login, password, stamp);
    return first && credential ? { credential, provider: first } : undefined;
  } catch {
    // Not known, then: validateCredential asks again, and its failure is reported.
    return undefined;
  }
}

/**
 * Tries the providers in their declared order; the first that confirms wins
 * (api-v2.md, Authentication flow, step 3). A provider that fails (a
 * directory down) counts as not confirming; `onError` hears about it.
 */
export async function validateThroughProviders(
  providers: readonly CredentialProvider[],
  login: string,
  password: string,
  onError: (error: unknown, provider: CredentialProvider) => void = () => {},
  stamp?: ChangeStamp,
): Promise<{ credential: ConfirmedCredential; provider: CredentialProvider } | undefined> {
  for (const provider of providers) {
    try {
      const credential = await provider.validateCredential(login, password, stamp);
      if (credential) return { credential, provider };
    } catch (error) {
      onError(error, provider);
    }
  }
  return undefined;
}
