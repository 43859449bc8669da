import { AppConfig } from './app-config';

type SecretSettings = Pick<AppConfig, 'adminApiKeys' | 'dispatcherApiKeys' | 'encryptionKeys' | 'database' | 'amqpUrl'>;

// The values no log line may show.
export function configuredSecrets({ adminApiKeys, dispatcherApiKeys, encryptionKeys, database, amqpUrl }: SecretSettings): string[] {
  return [
    ...adminApiKeys,
    ...dispatcherApiKeys,
    ...encryptionKeys.map((key) => key.key.toString('base64')),
    ...passwordsIn(database.type === 'sqlite' ? undefined : database.url),
    ...passwordsIn(amqpUrl),
  ];
}

// As written (percent-encoded) and as meant.
function passwordsIn(url: string | undefined): string[] {
  if (url === undefined) return [];
  try {
    const { password } = new URL(url);
    return password === '' ? [] : [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}
