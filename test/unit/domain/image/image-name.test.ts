// The image name rules: only `<64 lowercase hex>.<png|jpg|webp>` names an image, and only
// lorebook's own URLs (on its base URL, or the bare /i/ path) count as its images.
import { describe, expect, it } from 'vitest';
import { imageName, imageUrl, ownImage, parseImageFile } from '../../../../src/domain/image/image-name.ts';
import { sniffImageType } from '../../../../src/domain/image/image-type.ts';

const SHA = 'ab'.repeat(32);
const BASE = 'https://lorebook.example';

describe('an image file name', () => {
  it('is the content hash and the extension of its type', () => {
    expect(imageName(SHA, 'image/jpeg').file).toBe(`${SHA}.jpg`);
    expect(parseImageFile(`${SHA}.webp`)).toEqual({ sha256: SHA, type: 'image/webp', file: `${SHA}.webp` });
  });

  it('refuses anything else: other extensions, upper case, short hashes, paths, suffixes', () => {
    for (const file of [
      `${SHA}.gif`,
      `${SHA}.jpeg`,
      `${SHA.toUpperCase()}.png`,
      `${SHA.slice(1)}.png`,
      `../${SHA}.png`,
      `${SHA}.png/..`,
      `${SHA}.png.html`,
      `${SHA}.png\n`,
      `x${SHA}.png`,
      '',
    ]) {
      expect(parseImageFile(file), JSON.stringify(file)).toBeUndefined();
    }
  });
});

describe("lorebook's own image URLs", () => {
  it('are <base URL>/i/<name> or the bare /i/<name> path', () => {
    expect(ownImage(imageUrl(BASE, imageName(SHA, 'image/png')), BASE)).toMatchObject({ sha256: SHA, type: 'image/png' });
    expect(ownImage(`/i/${SHA}.png`, BASE)).toMatchObject({ sha256: SHA });
  });

  it('are not another site, a look-alike host, a query or a fragment', () => {
    for (const url of [
      `https://elsewhere.example/i/${SHA}.png`,
      `https://lorebook.example.evil/i/${SHA}.png`,
      `http://lorebook.example/i/${SHA}.png`,
      `${BASE}/i/${SHA}.png?x=1`,
      `${BASE}/i/${SHA}.png#top`,
      `//elsewhere.example/i/${SHA}.png`,
      `${BASE}/s/i/${SHA}.png`,
    ]) {
      expect(ownImage(url, BASE), url).toBeUndefined();
    }
  });
});

describe('an image type is judged by the bytes', () => {
  it('PNG, JPEG and WebP by their magic numbers; HTML, SVG, GIF and nothing are no image', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('<html>'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array())).toBeUndefined();
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined();
  });
});
