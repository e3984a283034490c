export { startBrowserHost, type BrowserHost, type BrowserHostOptions } from './host';
