import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureAccount, handlesFor } from '../../../src/app/account/accounts.ts';
import { createStoreClient } from '../../../src/store/client.ts';
import { accountKey } from '../../../src/store/keys.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('accounts');

const accountItems = async (account: string) => (await app.state()).filter((item) => item.PK === `ACCOUNT#${account}`);

describe('ensureAccount is safe to call on every sign-in', () => {
  it('a second identical ensureAccount answers the same, keeps one item and writes nothing', async () => {
    const alice = caller('alice');
    const first = await ensureAccount(app.ctx(), alice);
    const before = await app.state();
    app.counter().reset();
    const second = await ensureAccount(app.ctx(), alice);
    // One snapshot read of the account (writeLoop), no write.
    expect(app.counter().snapshot()).toEqual({ TransactGetItems: 1 });
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
    expect(await accountItems(alice.account)).toEqual([
      { PK: 'ACCOUNT#acct-alice', SK: 'META', id: 'acct-alice', handle: 'alice.test', created_at: first.created_at },
    ]);
  });

  it('16 parallel first sign-ins create one account and all answer the same', async () => {
    const bob = caller('bob');
    const answers = await Promise.all(Array.from({ length: 16 }, () => ensureAccount(app.ctx(), bob)));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await accountItems(bob.account)).toHaveLength(1);
  });

  it('a changed handle is followed, created_at is kept, and the displayed handle changes', async () => {
    const carol = caller('carol');
    const first = await ensureAccount(app.ctx(), carol);
    app.advance(60_000);
    const renamed = await ensureAccount(app.ctx(), { account: carol.account, handle: 'carol.example.com' });
    expect(renamed).toEqual({ id: carol.account, handle: 'carol.example.com', created_at: first.created_at });
    expect(await accountItems(carol.account)).toEqual([
      { PK: 'ACCOUNT#acct-carol', SK: 'META', id: 'acct-carol', handle: 'carol.example.com', created_at: first.created_at },
    ]);
    expect((await handlesFor(app.ctx(), [carol.account])).get(carol.account)).toBe('carol.example.com');
  });

  it('the same handle change twice writes once', async () => {
    const dave = caller('dave');
    await ensureAccount(app.ctx(), dave);
    await ensureAccount(app.ctx(), { account: dave.account, handle: 'dave.example.com' });
    const before = await app.state();
    app.counter().reset();
    await ensureAccount(app.ctx(), { account: dave.account, handle: 'dave.example.com' });
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('two devices renaming at once both converge: one item, the handle of whichever landed last', async () => {
    const erin = caller('erin');
    const created = await ensureAccount(app.ctx(), erin);
    const answers = await Promise.all(
      ['erin-a.test', 'erin-b.test', 'erin-a.test', 'erin-b.test'].map((handle) =>
        ensureAccount(app.ctx(), { account: erin.account, handle }),
      ),
    );
    const items = await accountItems(erin.account);
    expect(items).toHaveLength(1);
    expect(['erin-a.test', 'erin-b.test']).toContain(items[0]?.handle);
    expect(items[0]?.created_at).toBe(created.created_at);
    for (const answer of answers) expect(answer.created_at).toBe(created.created_at);
  });

  it('a handle change that lands between the read and the write is re-read, not blindly overwritten', async () => {
    const frank = caller('frank');
    await ensureAccount(app.ctx(), frank);
    const other = createStoreClient({ endpoint: testEndpoint() });
    const tableName = app.ctx().store.tableName;
    const client = app.ctx().store.client;
    let injected = false;
    // Another sign-in renames the account after our read, just before our update is sent.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!injected && /^Update(Item)?Command$/.test(String(context.commandName))) {
          injected = true;
          await other.send(
            new UpdateCommand({
              TableName: tableName,
              Key: accountKey(frank.account),
              UpdateExpression: 'SET handle = :h',
              ExpressionAttributeValues: { ':h': 'frank-elsewhere.test' },
            }),
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'renameInBetween' },
    );
    try {
      app.counter().reset();
      const answer = await ensureAccount(app.ctx(), { account: frank.account, handle: 'frank.example.com' });
      console.log('ensureAccount with a rename in between', app.counter().snapshot());
      // The first update was refused (it named the handle it read), the re-read saw the rename.
      expect(app.counter().snapshot()).toEqual({ TransactGetItems: 2, UpdateItem: 2 });
      expect(answer.handle).toBe('frank.example.com');
      const stored = await other.send(new GetCommand({ TableName: tableName, Key: accountKey(frank.account), ConsistentRead: true }));
      expect(stored.Item?.handle).toBe('frank.example.com');
    } finally {
      client.middlewareStack.remove('renameInBetween');
      other.destroy();
    }
  });
});

describe('handlesFor resolves display handles from accounts', () => {
  it('answers every id in one read, showing the id of an account that has no item', async () => {
    await ensureAccount(app.ctx(), caller('gina'));
    app.counter().reset();
    const handles = await handlesFor(app.ctx(), ['acct-gina', 'acct-nobody', 'acct-gina']);
    expect(app.counter().snapshot()).toEqual({ BatchGetItem: 1 });
    expect([...handles]).toEqual([
      ['acct-gina', 'gina.test'],
      ['acct-nobody', 'acct-nobody'],
    ]);
  });

  it('no ids costs no round trip', async () => {
    app.counter().reset();
    expect((await handlesFor(app.ctx(), [])).size).toBe(0);
    expect(app.counter().total()).toBe(0);
  });
});
