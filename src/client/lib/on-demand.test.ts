import { describe, expect, it } from 'vitest';
import { onDemand } from './on-demand';

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
    let imports = 0;
    const code = onDemand(async () => {
      imports += 1;
      if (imports === 1) throw new Error('the network went away');
      return { name: 'forms' };
    });
    await expect(code.load()).rejects.toThrow('the network went away');
    expect(code.loaded()).toBeNull();
    await expect(code.load()).resolves.toEqual({ name: 'forms' });
    expect(imports).toBe(2);
  });
});
