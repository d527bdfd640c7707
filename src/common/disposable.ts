// A small Disposable base (the pattern of VS Code core and the GitHub PR extension): everything a
// component creates is registered once and released together; registering after dispose releases
// at once, so late async work cannot leak.
export interface IDisposable {
  dispose(): void;
}

export class Disposable implements IDisposable {
  private readonly owned: IDisposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected register<T extends IDisposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try { d.dispose(); } catch { /* keep releasing the rest */ }
    }
  }
}
