/** A few DOM helpers, so views read as structure rather than as createElement/setAttribute chatter. */

export interface ElementOptions {
  className?: string;
  text?: string;
  attributes?: Record<string, string>;
}

export function createElement<Tag extends keyof HTMLElementTagNameMap>(
  document: Document,
  tag: Tag,
  options: ElementOptions = {},
  children: Node[] = [],
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attributes ?? {})) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
}

/** A codicon `<span>`, hidden from assistive technology (the text next to it says what it means). */
export function createIcon(document: Document, iconClasses: string, extraClass = ''): HTMLSpanElement {
  return createElement(document, 'span', {
    className: `codicon ${iconClasses}${extraClass ? ` ${extraClass}` : ''}`,
    attributes: { 'aria-hidden': 'true' },
  });
}

/** A themed button; `secondary` uses VS Code's secondary button colours. */
export function createButton(
  document: Document,
  label: string,
  options: { secondary?: boolean; icon?: string; ariaLabel?: string; className?: string } = {},
): HTMLButtonElement {
  const classes = ['button', options.secondary ? 'button-secondary' : '', options.className ?? ''].filter(Boolean).join(' ');
  const button = createElement(document, 'button', { className: classes, attributes: { type: 'button' } });
  if (options.icon) button.append(createIcon(document, options.icon));
  button.append(document.createTextNode(label));
  if (options.ariaLabel) button.setAttribute('aria-label', options.ariaLabel);
  return button;
}

/** Sets an attribute only when it changes: rows re-render often and most attributes stay the same. */
export function setAttributeIfChanged(element: Element, name: string, value: string | null): void {
  if (value === null) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) {
    element.setAttribute(name, value);
  }
}

export function setTextIfChanged(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Shows or hides an element, writing only on change (a write, even of the same value, can cost a layout). */
export function setHidden(element: HTMLElement, hidden: boolean): void {
  if (element.hidden !== hidden) element.hidden = hidden;
}
