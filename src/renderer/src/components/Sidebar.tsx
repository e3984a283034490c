import {
  CalendarClock,
  ClipboardList,
  GraduationCap,
  GitCompare,
  Inbox,
  Layers,
  LayoutDashboard,
  Package,
  Plug,
  ScrollText,
  Settings,
  Users,
} from 'lucide-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { isMac, useAppStore } from '../stores/app-store';
import { DASHBOARD_SCREEN, MORE_SCREENS, SCREENS } from '../lib/shortcuts';
import { usePractice } from '../lib/practice';

const ICONS = {
  '/dashboard': LayoutDashboard,
  '/protocols': ClipboardList,
  '/orders': Inbox,
  '/batches': Layers,
  '/refills': CalendarClock,
  '/conflicts': GitCompare,
  '/catalog': Package,
  '/settings': Settings,
  '/connect': Plug,
  '/patients': Users,
  '/activity': ScrollText,
} as const;

/** Arrow keys move between the sidebar's links, as in any menu-like list. */
function onArrows(event: KeyboardEvent<HTMLElement>) {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const links = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>('a')];
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return;
  event.preventDefault();
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? links.length - 1
        : (index + (event.key === 'ArrowDown' ? 1 : -1) + links.length) % links.length;
  links[next]?.focus();
}

/** A screen's link: its icon and name, and its shortcut where it has one. */
function NavItem({
  path,
  label,
  current,
  shortcut,
  children,
}: {
  path: keyof typeof ICONS;
  label: string;
  current: boolean;
  shortcut?: { shown: string; keys: string };
  children?: ReactNode;
}) {
  const Icon = ICONS[path];
  return (
    <li>
      <Link
        href={path}
        className="nav-link"
        aria-current={current ? 'page' : undefined}
        aria-keyshortcuts={shortcut?.keys}
        title={shortcut ? `${label} (${shortcut.shown})` : label}
      >
        <Icon aria-hidden="true" size={18} />
        <span className="nav-label">{label}</span>
        {children}
        {shortcut && (
          <kbd className="nav-kbd" aria-hidden="true">
            {shortcut.shown}
          </kbd>
        )}
      </Link>
    </li>
  );
}

export function Sidebar() {
  const [location] = useLocation();
  const platform = useAppStore((s) => s.platform);
  const version = useAppStore((s) => s.version);
  const conflicts = useAppStore((s) => s.outbox.conflicts);
  const practice = usePractice();
  const mod = isMac(platform) ? '⌘' : 'Ctrl+';
  const modName = isMac(platform) ? 'Meta' : 'Control';
  const isCurrent = (path: string) => location === path || location.startsWith(`${path}/`);
  return (
    <aside className="sidebar">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">OD</span>
        <span className="brand-name">Order Desk</span>
      </div>
      <nav aria-label="Main" onKeyDown={onArrows}>
        <ul className="nav-list">
          <NavItem
            path={DASHBOARD_SCREEN.path}
            label={DASHBOARD_SCREEN.label}
            current={isCurrent(DASHBOARD_SCREEN.path)}
            shortcut={{
              shown: `${mod}${DASHBOARD_SCREEN.shortcut.shown}`,
              keys: `${modName}+${DASHBOARD_SCREEN.shortcut.keys}`,
            }}
          />
          {SCREENS.map((screen) => (
            <NavItem
              key={screen.path}
              path={screen.path}
              label={screen.label}
              current={isCurrent(screen.path)}
              shortcut={{ shown: `${mod}${screen.key}`, keys: `${modName}+${screen.key}` }}
            >
              {screen.path === '/conflicts' && conflicts > 0 && (
                <span className="nav-count" data-testid="conflicts-count">
                  {conflicts}
                  <span className="visually-hidden"> to resolve</span>
                </span>
              )}
            </NavItem>
          ))}
          {MORE_SCREENS.map((screen) => (
            <NavItem
              key={screen.path}
              path={screen.path}
              label={screen.label}
              current={isCurrent(screen.path)}
            />
          ))}
          {practice.enabled && (
            <li>
              <Link
                href="/practice"
                className="nav-link nav-link-practice"
                aria-current={location === '/practice' ? 'page' : undefined}
                title="Practice: the local sandbox's controls"
              >
                <GraduationCap aria-hidden="true" size={18} />
                <span className="nav-label">Practice</span>
              </Link>
            </li>
          )}
        </ul>
      </nav>
      <p className="sidebar-foot muted">
        {mod}1–{SCREENS.length} switch screens
        {version && <span className="sidebar-version">Version {version}</span>}
      </p>
    </aside>
  );
}
