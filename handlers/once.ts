// A value built at most once per Lambda container (a cold start), on first use. A failed build
// is forgotten, so one invocation that met a passing outage does not poison the warm container.
export function once<T>(build: () => Promise<T>): () => Promise<T> {
  let building: Promise<T> | undefined;
  return () => {
    building ??= build().catch((error: unknown) => {
      building = undefined;
      throw error;
    });
    return building;
  };
}
