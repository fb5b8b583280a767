// Progressive enhancement only: the copy button and the playground's evidence highlight.
// Everything else works without script.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy)
    const status = document.getElementById(button.dataset.status)
    field.select()
    let ok
    try {
      await navigator.clipboard.writeText(field.value)
      ok = true
    } catch {
      ok = document.execCommand && document.execCommand('copy')
    }
    if (status) status.textContent = ok ? 'Copied to the clipboard.' : 'Select the token and copy it with Ctrl+C / Cmd+C.'
  })
}

// The playground: while a relation (its table row or its arrow in the graph) is under the
// pointer or holds the keyboard focus, its evidence is highlighted in the text. Without script
// the evidence is a link to the sentence, highlighted there as the page's target.
const result = document.querySelector('.playground-result')
if (result) {
  let active
  const show = (holder) => {
    const id = holder ? holder.dataset.evidence : undefined
    if (id === active) return
    active = id
    for (const el of result.querySelectorAll('.is-evidence')) el.classList.remove('is-evidence')
    if (id) for (const el of result.querySelectorAll(`[data-ev~="${id}"], [data-evidence="${id}"]`)) el.classList.add('is-evidence')
  }
  const focused = () => (result.contains(document.activeElement) ? document.activeElement.closest('[data-evidence]') : null)
  result.addEventListener('mouseover', (e) => show(e.target.closest('[data-evidence]') || focused()))
  result.addEventListener('mouseleave', () => show(focused()))
  result.addEventListener('focusin', (e) => show(e.target.closest('[data-evidence]')))
  result.addEventListener('focusout', (e) => show(result.contains(e.relatedTarget) ? e.relatedTarget.closest('[data-evidence]') : null))
}
