import { describe, expect, it } from 'vitest';
import { groupFlows, matchesFlowSearch } from './catalogue.ts';

const nominas = { name: 'Revisar nóminas', description: 'Comprueba las bases de cotización', group: 'Laboral' };
const fie = { name: 'FIE a incidencias A3', description: 'Convierte los ficheros FIE de SILTRA', group: 'Laboral' };
const modelo = { name: 'Modelo 111', description: 'Presenta el modelo trimestral', group: 'Fiscal' };

describe('matchesFlowSearch', () => {
  it('ignores case and accents in both the query and the robot', () => {
    expect(matchesFlowSearch(nominas, 'NOMINAS')).toBe(true);
    expect(matchesFlowSearch(nominas, 'cotización')).toBe(true);
    expect(matchesFlowSearch({ ...nominas, name: 'Revisar nominas' }, 'nóminas')).toBe(true);
  });

  it('needs every word, each in any of name, description or group', () => {
    expect(matchesFlowSearch(fie, 'laboral siltra')).toBe(true);
    expect(matchesFlowSearch(fie, 'laboral modelo')).toBe(false);
  });

  it('matches everything on a blank query', () => {
    expect(matchesFlowSearch(modelo, '   ')).toBe(true);
  });
});

describe('groupFlows', () => {
  it('groups robots and orders groups and names the Spanish way', () => {
    const groups = groupFlows([nominas, modelo, fie]);
    expect(groups.map((group) => group.group)).toEqual(['Fiscal', 'Laboral']);
    expect(groups[1]?.flows.map((flow) => flow.name)).toEqual(['FIE a incidencias A3', 'Revisar nóminas']);
  });

  it('has no groups without robots', () => {
    expect(groupFlows([])).toEqual([]);
  });
});
