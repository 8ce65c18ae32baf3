import type { ConfirmedCredential, CredentialProvider } from "../ports/credential-provider.port.ts";

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
): Promise<{ credential: ConfirmedCredential; provider: CredentialProvider } | undefined> {
  for (const provider of providers) {
    try {
      const credential = await provider.validateCredential(login, password);
      if (credential) return { credential, provider };
    } catch (error) {
      onError(error, provider);
    }
  }
  return undefined;
}
