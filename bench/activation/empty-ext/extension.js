// The smallest extension with what bench/activation measures: activated by opening its view, it
// renders a webview that says "ready" and marks itself ready once the host answers (page loads,
// posts `ready`, receives its state: how a webview usually gets its state; Switchboard's chat, since
// decision 0030, has its first state written into its page and waits for no answer).
const vscode = require('vscode');

exports.activate = function activate(context) {
  context.subscriptions.push(vscode.window.registerWebviewViewProvider('emptyBaseline.view', {
    resolveWebviewView(view) {
      view.webview.options = { enableScripts: true };
      view.webview.onDidReceiveMessage(msg => {
        if (msg?.type === 'ready') void view.webview.postMessage({ type: 'state' });
      });
      view.webview.html = `<!DOCTYPE html><html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline';">
</head><body><p>Empty</p><script>
  const vscode = acquireVsCodeApi();
  addEventListener('message', e => { if (e.data?.type === 'state') { document.body.dataset.ready = 'true'; performance.mark('view-ready', { detail: Date.now() }); } });
  vscode.postMessage({ type: 'ready' });
</script></body></html>`;
    },
  }));
};

exports.deactivate = function deactivate() {};
