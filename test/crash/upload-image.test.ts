// upload_image under a crash at every store step: a first upload (the image file, the image record
// and the day's count), and the same image sent again the same day; the stored files are part of
// the state compared.
import { uploadImage } from '../../src/app/images/upload-image.ts';
import { caller } from '../helpers/app-fixture.ts';
import { pictureOf } from '../helpers/images.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
/** The day and the record read before the file is stored, then write-once's read and write. */
const SNAPSHOT_THEN_WRITE = ['TransactGetItems', 'TransactGetItems', 'TransactWriteItems'];
/** Without an op_id the day is read first, so a full day is refused before any decoding (design.md#fair-cpu). */
const DAY_FIRST = ['GetItem', ...SNAPSHOT_THEN_WRITE];
const picture = async (seed: number): Promise<string> => (await pictureOf(seed)).toString('base64');

crashPoints({
  name: 'upload_image, a first upload',
  setup: async () => picture(1),
  call: (ctx, data, opId) => uploadImage(ctx, alice, { data, type: 'image/png', op_id: opId }),
  steps: { plain: DAY_FIRST, withOpId: SNAPSHOT_THEN_WRITE },
  images: true,
});

crashPoints({
  name: 'upload_image, the same image again',
  setup: async ({ ctx, tick }) => {
    const data = await picture(2);
    await uploadImage(ctx, alice, { data, type: 'image/png' });
    tick();
    return data;
  },
  call: (ctx, data, opId) => uploadImage(ctx, alice, { data, type: 'image/png', op_id: opId }),
  // Counted already: nothing to write, but the op record with an op_id.
  steps: { plain: ['GetItem', 'TransactGetItems', 'TransactGetItems'], withOpId: SNAPSHOT_THEN_WRITE },
  images: true,
});
