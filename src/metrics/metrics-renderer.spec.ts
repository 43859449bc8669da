import { register } from 'prom-client';
import { METRICS_CACHE_MS, MetricsRenderer } from './metrics-renderer';

describe('MetricsRenderer', () => {
  let renders: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    let count = 0;
    renders = jest.spyOn(register, 'metrics').mockImplementation(() => Promise.resolve(`# rendering ${++count}\n`));
  });
  afterEach(() => {
    renders.mockRestore();
    jest.useRealTimers();
  });

  it('should render once for every scrape within the window, concurrent or not, and again after it', async () => {
    const renderer = new MetricsRenderer();
    const together = await Promise.all([renderer.render(), renderer.render(), renderer.render()]);
    expect(together).toEqual(['# rendering 1\n', '# rendering 1\n', '# rendering 1\n']);
    jest.advanceTimersByTime(METRICS_CACHE_MS - 1);
    expect(await renderer.render()).toBe('# rendering 1\n');
    expect(renders).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(await renderer.render()).toBe('# rendering 2\n');
    expect(renders).toHaveBeenCalledTimes(2);
  });

  it('should not serve a failed rendering again', async () => {
    const renderer = new MetricsRenderer();
    renders.mockRejectedValueOnce(new Error('collect failed'));
    await expect(renderer.render()).rejects.toThrow('collect failed');
    expect(await renderer.render()).toBe('# rendering 1\n');
  });

  it('should say the registry’s content type', () => {
    expect(new MetricsRenderer().contentType).toBe(register.contentType);
  });
});
