// DOM helpers shared by the chat's modules: an element with class, attributes and text; a button.

export function h(tag: string, className: string, attrs: Record<string, string> = {}, text?: string): HTMLElement {
  const el = document.createElement(tag);
  if (className) el.className = className;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

export function button(label: string, className: string, onClick: () => void, title?: string): HTMLButtonElement {
  const b = h('button', className, { type: 'button' }, label) as HTMLButtonElement;
  if (title) { b.title = title; b.setAttribute('aria-label', title); }
  b.addEventListener('click', onClick);
  return b;
}
