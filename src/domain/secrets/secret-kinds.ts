// The names a refusal gives what it found: secretlint's message ids (and the patterns lorebook adds,
// ./extra-secret-patterns.ts) mapped to one stable kind and the words an agent reads.

export interface SecretKind {
  /** Stable, machine-readable: `details.findings[].kind`. */
  kind: string;
  /** For the message: "AWS secret access key at line 41 of …". */
  label: string;
}

const BY_MESSAGE_ID: Record<string, SecretKind> = {
  AWSAccessKeyID: { kind: 'aws_access_key_id', label: 'AWS access key id' },
  AWSSecretAccessKey: { kind: 'aws_secret_access_key', label: 'AWS secret access key' },
  PrivateKey: { kind: 'private_key', label: 'Private key' },
  PrivateKeyJSON: { kind: 'gcp_service_account', label: 'GCP service account key' },
  PrivateKeyP12: { kind: 'gcp_service_account', label: 'GCP service account key' },
  GITHUB_TOKEN: { kind: 'github_token', label: 'GitHub token' },
  GITLAB_PERSONAL_ACCESS_TOKEN: { kind: 'gitlab_token', label: 'GitLab token' },
  SLACK_TOKEN: { kind: 'slack_token', label: 'Slack token' },
  IncomingWebhook: { kind: 'slack_webhook', label: 'Slack webhook URL' },
  OPENAI_TOKEN: { kind: 'openai_api_key', label: 'OpenAI API key' },
  ANTHROPIC_API_KEY: { kind: 'anthropic_api_key', label: 'Anthropic API key' },
  STRIPE_SECRET_KEY_LIVE: { kind: 'stripe_secret_key', label: 'Stripe secret key' },
  STRIPE_SECRET_KEY_TEST: { kind: 'stripe_secret_key', label: 'Stripe test secret key' },
  STRIPE_RESTRICTED_KEY_LIVE: { kind: 'stripe_secret_key', label: 'Stripe restricted key' },
  STRIPE_RESTRICTED_KEY_TEST: { kind: 'stripe_secret_key', label: 'Stripe test restricted key' },
  NPM_ACCESS_TOKEN: { kind: 'npm_token', label: 'npm token' },
  Npmrc_authToken: { kind: 'npm_token', label: 'npm token' },
  PackageJSON_xOauthToken: { kind: 'npm_token', label: 'npm token' },
  PostgreSQLConnection: { kind: 'database_url_password', label: 'Database URL with a password' },
  MySQLConnection: { kind: 'database_url_password', label: 'Database URL with a password' },
  MongoDBConnection: { kind: 'database_url_password', label: 'Database URL with a password' },
  BasicAuth: { kind: 'basic_auth_url', label: 'URL with a user name and password' },
  SENDGRID_KEY: { kind: 'sendgrid_api_key', label: 'SendGrid API key' },
  SHOPIFY_KEY: { kind: 'shopify_token', label: 'Shopify token' },
  GROQ_API_KEY: { kind: 'groq_api_key', label: 'Groq API key' },
  HUGGINGFACE_USER_ACCESS_TOKEN: { kind: 'huggingface_token', label: 'Hugging Face token' },
  LINEAR_API_TOKEN: { kind: 'linear_api_key', label: 'Linear API key' },
  NOTION_INTEGRATION_TOKEN: { kind: 'notion_token', label: 'Notion token' },
  GRAFANA_CLOUD_API_TOKEN: { kind: 'grafana_token', label: 'Grafana token' },
  GRAFANA_SERVICE_ACCOUNT_TOKEN: { kind: 'grafana_token', label: 'Grafana token' },
  DATABRICKS_PERSONAL_ACCESS_TOKEN: { kind: 'databricks_token', label: 'Databricks token' },
  DOCKER_PERSONAL_ACCESS_TOKEN: { kind: 'docker_token', label: 'Docker Hub token' },
  FIGMA_PERSONAL_ACCESS_TOKEN: { kind: 'figma_token', label: 'Figma token' },
  OPS_TOKEN: { kind: 'onepassword_token', label: '1Password service account token' },
};

/** A message id secretlint adds after this table was written still refuses, named by its rule. */
export function secretKindOf(messageId: string, ruleId: string): SecretKind {
  const known = BY_MESSAGE_ID[messageId];
  if (known !== undefined) return known;
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return { kind: rule.replace(/[^a-z0-9]+/g, '_'), label: `Credential (${rule})` };
}
