// Progressive enhancement only: the copy button. Everything else works without script.
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
