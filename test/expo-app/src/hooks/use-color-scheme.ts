export { useColorScheme } from 'react-native';
