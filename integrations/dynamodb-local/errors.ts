// Errors of the embedded DynamoDB. These are operator-facing (a developer starting lorebook
// locally or running the tests), not API refusals, so they are not LorebookErrors.

/** Base class: thrown when the embedded DynamoDB Local cannot be started or stopped. */
export class DynamoDbLocalError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'DynamoDbLocalError';
  }
}

export const JAVA_INSTALL_HINT =
  'DynamoDB Local needs Java 17 or newer. Install it (Debian/Ubuntu: ' +
  '`apt-get install openjdk-17-jre-headless`; macOS: `brew install openjdk@17`) ' +
  'or point the JAVA environment variable at a Java 17+ `java` binary.';

/** Thrown when the `java` binary is missing, not runnable, or older than Java 17. */
export class JavaUnavailableError extends DynamoDbLocalError {
  readonly java: string;

  constructor(java: string, problem: string, options: { cause?: unknown } = {}) {
    super(`Cannot run DynamoDB Local: ${problem} (java binary: ${java}). ${JAVA_INSTALL_HINT}`, options);
    this.name = 'JavaUnavailableError';
    this.java = java;
  }
}

/** Thrown when the JVM started but DynamoDB Local never answered ListTables, or exited early. */
export class DynamoDbLocalStartError extends DynamoDbLocalError {
  readonly outputTail: readonly string[];

  constructor(message: string, outputTail: readonly string[], options: { cause?: unknown } = {}) {
    const tail = outputTail.length > 0 ? `\nLast output lines:\n  ${outputTail.join('\n  ')}` : '';
    super(`${message}${tail}`, options);
    this.name = 'DynamoDbLocalStartError';
    this.outputTail = outputTail;
  }
}
