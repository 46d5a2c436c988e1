import { useEffect } from 'preact/hooks'
import { documentTitle } from '../routes'

/**
 * Keeps the document's title naming the page and, once it is shown, the record it is about: the main heading
 * when it says more than the page's name ("Production estate · Costs · Costwatch", "Spike on 2026-02-27 ·
 * Anomaly · Costwatch"), the page's name alone otherwise ("Anomalies · Costwatch"). Read from the heading itself,
 * so every page's title follows what it shows, while it loads and after, with nothing to keep in step.
 */
export function usePageTitle(pageName: string | null) {
  useEffect(() => {
    if (pageName === null) return
    const update = () => {
      const heading = document.querySelector('main h1')?.textContent?.trim() ?? ''
      const title = documentTitle(heading && heading !== pageName ? `${heading} · ${pageName}` : pageName)
      if (document.title !== title) document.title = title
    }
    update()
    const observer = new MutationObserver(update)
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    return () => observer.disconnect()
  }, [pageName])
}
