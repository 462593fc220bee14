// The unit project alone, for the mutation run over module-level (static) condition constants:
// their exact expressions are pinned by unit tests, so this run needs no DynamoDB.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } });
