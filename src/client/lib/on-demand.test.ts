import { describe, expect, it } from 'vitest';
import { onDemand } from './on-demand';

/** Code whose first import fails, as on a network that went away, and whose second succeeds. */
function failingOnce() {
  let count = 0;
  const code = onDemand(async () => {
    count += 1;
    if (count === 1) throw new Error('the network went away');
    return { name: 'forms' };
  });
  return { code, imports: () => count };
}

describe('onDemand', () => {
  it('imports once, however often it is asked, and remembers the module', async () => {
    let imports = 0;
    const code = onDemand(async () => {
      imports += 1;
      return { name: 'forms' };
    });
    expect(code.loaded()).toBeNull();
    const [first, second] = await Promise.all([code.load(), code.load()]);
    expect(first).toBe(second);
    expect(code.loaded()).toBe(first);
    await code.load();
    expect(imports).toBe(1);
  });

  it('asks again after a failed import, where React.lazy would keep the failure', async () => {
    const { code, imports } = failingOnce();
    await expect(code.load()).rejects.toThrow('the network went away');
    expect(code.loaded()).toBeNull();
    await expect(code.load()).resolves.toEqual({ name: 'forms' });
    expect(imports()).toBe(2);
  });

  it('prefetches without an unhandled failure, and the next load asks again', async () => {
    const { code, imports } = failingOnce();
    code.prefetch();
    // the failed import settles in microtasks; a macrotask later it has
    await new Promise((resolve) => setImmediate(resolve));
    expect(imports()).toBe(1);
    expect(code.loaded()).toBeNull();
    await expect(code.load()).resolves.toEqual({ name: 'forms' });
    expect(imports()).toBe(2);
  });
});
