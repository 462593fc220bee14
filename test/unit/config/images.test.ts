// Where uploaded images are kept: a directory by default (npm start), S3 when a bucket is named
// (the stack names one on Lambda), and the context built from each.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config.ts';
import { buildContext } from '../../../src/context.ts';

describe('image settings', () => {
  it('unset: the directory .data/images, which LOREBOOK_IMAGE_DIR moves', () => {
    expect(readConfig({}).images).toEqual({ directory: '.data/images' });
    expect(readConfig({ LOREBOOK_IMAGE_DIR: '/srv/lorebook/images' }).images).toEqual({ directory: '/srv/lorebook/images' });
    expect(buildContext(readConfig({ LOREBOOK_IMAGE_DIR: '/srv/lorebook/images' })).images?.describe).toBe(
      'the directory /srv/lorebook/images',
    );
  });

  it('LOREBOOK_IMAGE_BUCKET: S3 instead of the directory, at LOREBOOK_IMAGE_S3_ENDPOINT when set', () => {
    const env = { LOREBOOK_IMAGE_BUCKET: 'lorebook-images', LOREBOOK_IMAGE_DIR: '/ignored' };
    expect(readConfig(env).images).toEqual({ bucket: 'lorebook-images', endpoint: undefined });
    expect(readConfig({ ...env, LOREBOOK_IMAGE_S3_ENDPOINT: 'http://127.0.0.1:9000' }).images).toEqual({
      bucket: 'lorebook-images',
      endpoint: 'http://127.0.0.1:9000',
    });
    expect(buildContext(readConfig(env)).images?.describe).toBe('the S3 bucket lorebook-images');
  });
});
