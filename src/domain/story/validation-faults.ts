import { validationFailed } from '../errors.ts';

/**
 * Collects every fault before refusing, so an agent fixes its story in one round trip instead
 * of one fault per attempt. Keys are `front_matter.<key>`, `body.<part>` or `section.<name>`;
 * values are fix-it sentences.
 */
export class ValidationFaults {
  readonly #faults = new Map<string, string[]>();
  readonly #rename: (field: string) => string;

  /** `rename` maps each field name as it is added, e.g. to the part names of publish_story. */
  constructor(rename: (field: string) => string = (field) => field) {
    this.#rename = rename;
  }

  add(name: string, fix: string): void {
    const field = this.#rename(name);
    const existing = this.#faults.get(field);
    if (existing === undefined) this.#faults.set(field, [fix]);
    else if (!existing.includes(fix)) existing.push(fix);
  }

  has(name: string): boolean {
    return this.#faults.has(this.#rename(name));
  }

  get size(): number {
    return this.#faults.size;
  }

  toFields(): Record<string, string> {
    return Object.fromEntries([...this.#faults].map(([field, fixes]) => [field, fixes.join(' ')]));
  }

  /** Throws validation_failed naming every field at fault; does nothing when there are none. */
  throwIfAny(subject: string): void {
    if (this.#faults.size === 0) return;
    const fields = this.toFields();
    const list = Object.entries(fields)
      .map(([field, fix]) => `${field}: ${fix}`)
      .join(' ');
    const count = this.#faults.size;
    throw validationFailed(
      `${subject} has ${count} problem${count === 1 ? '' : 's'}; fix ${count === 1 ? 'it' : 'all of them'} and send it again. ${list}`,
      fields,
    );
  }
}
